// GET /api/v1/audits/{id}/changes: what changed between an audit and the previous audit of its page
// (same key, URL, branch and standard), or an earlier audit of that page named by `against`. Like
// the other read-back routes it needs a valid key, sees only that key's audits and takes no audit
// rate-limit slot. The ids and statuses follow GET /api/v1/audits/{id}: an unknown audit, an id
// that is not a UUID and another key's audit are one 404. `against` is the client's input, so a
// malformed one or an audit of another page is a 400 saying so; another key's audit as `against`
// is the same 404 as an unknown one, so ids still reveal nothing about other keys.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { auditChanges, type AuditChanges, type AuditRef } from '../../audit/changes.ts';
import type { Database } from '../../db/schema.ts';
import { requireApiKey } from '../api-key-auth.ts';
import { FieldErrorsBody, fieldErrors } from '../errors.ts';

const Uuid = Type.String({ format: 'uuid' });

export const AGAINST_MESSAGES = {
  uuid: 'must be a UUID',
  otherPage: 'is an audit of another page: compare audits of the same URL, branch and standard',
  notEarlier: 'must be an audit created before this one',
} as const;

const ChangesQuery = Type.Object(
  {
    against: Type.Optional(
      Type.String({
        maxLength: 100,
        description:
          'The `id` of an earlier audit of the same page (same URL, branch and standard) to compare with; default the ' +
          'previous audit of the page.',
      }),
    ),
  },
  { additionalProperties: false },
);

const AuditRefBody = Type.Object({
  id: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
});

const OccurrenceBody = Type.Object({
  identity: Type.String({
    description:
      'Stable identity (32 hex characters): control, rule and the normalised selector and snippet, so the same problem is the same ' +
      'identity in every audit of the page (README, "GET /api/v1/audits/{id}/changes").',
  }),
  control: Type.String(),
  severity: Type.Enum(['error', 'warning'], { description: 'The severity of the finding it belongs to.' }),
  rule: Type.Union([Type.String(), Type.Null()], { description: '`wcag`: the engine rule; null for a privacy or AI-governance finding.' }),
  selector: Type.Union([Type.String(), Type.Null()], { description: 'Where it is; null for a finding without location.' }),
  snippet: Type.Union([Type.String(), Type.Null()], { description: 'The element’s markup (at most 200 characters); null without location.' }),
});

const RegressedBody = Type.Object({
  ...OccurrenceBody.properties,
  seenIn: Type.Object(AuditRefBody.properties, {
    description: 'The newest audit of the page before `against` in which it appeared (had it where the audit before it did not, or was the page’s first).',
  }),
});

const ControlBody = Type.Object({
  control: Type.String(),
  severity: Type.Enum(['error', 'warning'], { description: 'The highest severity it failed with in the audit it is listed from.' }),
});

const ControlLists = Type.Object({
  new: Type.Array(ControlBody, { description: 'Fails in the audit, not in `against`.' }),
  fixed: Type.Array(ControlBody, { description: 'Failed in `against`, not in the audit.' }),
  persisting: Type.Array(ControlBody, { description: 'Fails in both.' }),
});

const OccurrenceLists = Type.Object({
  new: Type.Array(OccurrenceBody, { description: 'Failed occurrences of the audit that `against` did not have, in the audit’s order.' }),
  fixed: Type.Array(OccurrenceBody, { description: 'Failed occurrences of `against` that the audit does not have, in `against`’s order.' }),
  persisting: Type.Array(OccurrenceBody, { description: 'In both, as the audit has them.' }),
  regressed: Type.Array(RegressedBody, {
    description: 'The entries of `new` that an audit of the page older than `against` had: fixed since, and back.',
  }),
});

const EXAMPLE_OCCURRENCE = {
  identity: '5e0c4f1a9b2d7c3e8f6a1b0c9d8e7f6a',
  control: '1.1.1',
  severity: 'error',
  rule: 'image-alt',
  selector: 'html > body > main > img:nth-of-type(2)',
  snippet: '<img src="/b.png">',
};

const ChangesBody = Type.Object(
  {
    audit: Type.Object(AuditRefBody.properties, { description: 'The audit asked about.' }),
    against: Type.Union([AuditRefBody, Type.Null()], {
      description: 'The audit compared with: `against`, or the previous audit of the page; null when the page has none (everything is new).',
    }),
    severities: Type.Array(Type.Enum(['error', 'warning']), {
      description: 'The finding severities compared: `["error"]` when either audit was made with includeWarnings false, which stored no warnings.',
    }),
    totals: Type.Object(
      { new: Type.Integer(), fixed: Type.Integer(), persisting: Type.Integer(), regressed: Type.Integer() },
      { description: 'How many failed occurrences each list holds.' },
    ),
    controls: ControlLists,
    occurrences: OccurrenceLists,
  },
  {
    description:
      'What changed, per control and per failed occurrence (inconclusive findings are not failures and are not compared). A ' +
      'privacy or AI-governance finding is one occurrence; a wcag finding has one per listed element.',
    examples: [
      {
        audit: { id: '0b6f3c1e-8d2a-4f4b-9c1d-2e5a7b9c0d11', createdAt: '2026-03-08T10:00:15.123Z' },
        against: { id: '7d1e2f30-4a5b-4c6d-8e9f-a0b1c2d3e4f5', createdAt: '2026-03-01T10:00:14.870Z' },
        severities: ['error', 'warning'],
        totals: { new: 1, fixed: 1, persisting: 1, regressed: 1 },
        controls: { new: [], fixed: [], persisting: [{ control: '1.1.1', severity: 'error' }] },
        occurrences: {
          new: [EXAMPLE_OCCURRENCE],
          fixed: [{ ...EXAMPLE_OCCURRENCE, identity: '9a8b7c6d5e4f30211f2e3d4c5b6a7980', selector: 'html > body > main > img', snippet: '<img src="/a.png">' }],
          persisting: [
            {
              identity: 'c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8',
              control: '1.1.1',
              severity: 'error',
              rule: 'image-alt',
              selector: 'html > body > nav > a > img',
              snippet: '<img src="/logo.png?v=">',
            },
          ],
          regressed: [{ ...EXAMPLE_OCCURRENCE, seenIn: { id: '2c4e6a80-1b3d-4f5a-8c7e-9d0f1a2b3c4d', createdAt: '2026-02-22T10:00:13.402Z' } }],
        },
      },
    ],
  },
);

const InvalidKeyBody = Type.Object(
  { error: Type.Literal('invalid api key') },
  { description: 'X-API-Key missing, unknown or revoked.', examples: [{ error: 'invalid api key' }] },
);
const NotFoundBody = Type.Object(
  { error: Type.Literal('not found') },
  {
    description: 'The audit or the `against` audit is unknown, another key’s, or (the audit’s id) not a UUID.',
    examples: [{ error: 'not found' }],
  },
);

const iso = (ref: AuditRef) => ({ id: ref.id, createdAt: ref.createdAt.toISOString() });

function changesJson(changes: AuditChanges) {
  const { occurrences } = changes;
  return {
    audit: iso(changes.audit),
    against: changes.against === null ? null : iso(changes.against),
    severities: changes.severities,
    totals: {
      new: occurrences.new.length,
      fixed: occurrences.fixed.length,
      persisting: occurrences.persisting.length,
      regressed: occurrences.regressed.length,
    },
    controls: changes.controls,
    occurrences: { ...occurrences, regressed: occurrences.regressed.map((o) => ({ ...o, seenIn: iso(o.seenIn) })) },
  };
}

export function changesRoutes(deps: { db: Kysely<Database> }) {
  const authenticate = requireApiKey(deps.db);

  return async function register(app: FastifyInstance) {
    const typed = app.withTypeProvider<TypeBoxTypeProvider>();

    typed.get(
      '/api/v1/audits/:id/changes',
      {
        onRequest: authenticate,
        schema: {
          summary: 'What changed since the previous audit of the page',
          description:
            'Compares the audit with the previous audit of the same page (same key, URL, branch and standard; by createdAt, ' +
            'then id), or with the earlier audit named by `against`: the controls and failed occurrences that are new, fixed ' +
            'or persisting, each occurrence with its stable identity, and `regressed`, the new ones that an older audit of the ' +
            'page had. Audits stored before changes existed compare like any other. Takes no audit rate-limit slot and ' +
            'carries no RateLimit-* headers.',
          security: [{ apiKey: [] }],
          params: Type.Object({ id: Type.String({ description: 'The `id` of the audit’s 201 response.' }) }),
          querystring: ChangesQuery,
          response: {
            200: ChangesBody,
            400: Type.Object(FieldErrorsBody.properties, {
              description:
                '`against` is not a UUID, names an audit of another URL, branch or standard, or is not older than the audit; or the ' +
                'query has an unknown parameter.',
              examples: [
                { errors: { against: AGAINST_MESSAGES.uuid } },
                { errors: { against: AGAINST_MESSAGES.otherPage } },
                { errors: { against: AGAINST_MESSAGES.notEarlier } },
              ],
            }),
            401: InvalidKeyBody,
            404: NotFoundBody,
          },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const { against } = request.query;
        if (against !== undefined && !Value.Check(Uuid, against)) return reply.code(400).send(fieldErrors({ against: AGAINST_MESSAGES.uuid }));
        // As GET /api/v1/audits/{id}: a malformed id is not found, and the uuid column would refuse it.
        if (!Value.Check(Uuid, id)) return reply.code(404).send({ error: 'not found' });
        const result = await auditChanges(deps.db, request.apiKey!.id, id, against);
        switch (result.outcome) {
          case 'not found':
            return reply.code(404).send({ error: 'not found' });
          case 'other page':
            return reply.code(400).send(fieldErrors({ against: AGAINST_MESSAGES.otherPage }));
          case 'not earlier':
            return reply.code(400).send(fieldErrors({ against: AGAINST_MESSAGES.notEarlier }));
          case 'compared':
            return changesJson(result.changes);
        }
      },
    );
  };
}
