// Read-back of stored audits: GET /api/v1/audits/{id} (the audit exactly as its 201 returned it)
// and GET /api/v1/audits (the key's own audits, newest first, keyset-paginated). Reads need a
// valid key but take no audit rate-limit slot: they crawl nothing, and a CI pipeline polling its
// results must not starve its own audits.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { findAudit, listAudits, type AuditFilter } from '../../audit/audit-store.ts';
import { BRANCHES } from '../../audit/control.ts';
import type { Database } from '../../db/schema.ts';
import { requireApiKey } from '../api-key-auth.ts';
import { AuditResponse, AuditSummaryBody, toAuditResponse, toAuditSummary } from '../audit-response.ts';
import { decodeCursor, encodeCursor } from '../../db/keyset.ts';
import { convertQuery } from '../query.ts';
import { FieldErrorsBody, fieldErrors } from '../errors.ts';

const MAX_LIMIT = 100;

const AuditId = Type.String({ format: 'uuid' });

const ListQuery = Type.Object(
  {
    origin: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 2048,
        description:
          'Only audits of this HTTPS origin. A host (`example.com`), a host and port, or an https URL (its path is ignored) ' +
          'is normalised to the origin, e.g. `https://example.com`. Another scheme is a 400.',
      }),
    ),
    branch: Type.Optional(Type.Enum([...BRANCHES], { description: 'Only audits of this branch.' })),
    monitorId: Type.Optional(Type.String({ format: 'uuid', description: 'Only the scheduled runs of this monitor (one of the key’s; another id lists nothing).' })),
    since: Type.Optional(
      Type.String({ format: 'date-time', description: 'RFC 3339 date-time with offset; audits created at or after it.' }),
    ),
    until: Type.Optional(
      Type.String({ format: 'date-time', description: 'RFC 3339 date-time with offset; audits created before it (exclusive).' }),
    ),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: 20, description: `Page size, 1 to ${MAX_LIMIT}.` }),
    ),
    cursor: Type.Optional(
      Type.String({ maxLength: 200, description: 'The `nextCursor` of the previous page, unchanged, with the same filters.' }),
    ),
  },
  { additionalProperties: false },
);
type ListQuery = Static<typeof ListQuery>;

const AuditList = Type.Object(
  {
    items: Type.Array(AuditSummaryBody, { description: 'Newest first; ties on createdAt broken by id, descending.' }),
    nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next page; null on the last page.' }),
  },
  {
    description: 'One page of the key’s audits.',
    examples: [
      {
        items: [
          {
            id: '0b6f3c1e-8d2a-4f4b-9c1d-2e5a7b9c0d11',
            url: 'https://example.com/assistant',
            branch: 'ai-governance',
            createdAt: '2026-03-01T10:00:15.123Z',
            totals: { errors: 1, warnings: 0, inconclusive: 0 },
            trigger: 'api',
          },
        ],
        nextCursor: 'eyJjcmVhdGVkQXQiOiIyMDI2LTAzLTAxVDEwOjAwOjE1LjEyMzQ1NloiLCJpZCI6IjBiNmYzYzFlLThkMmEtNGY0Yi05YzFkLTJlNWE3YjljMGQxMSJ9',
      },
    ],
  },
);

const NotFoundBody = Type.Object(
  { error: Type.Literal('not found') },
  { description: 'Unknown id, an id that is not a UUID, or another key’s audit.', examples: [{ error: 'not found' }] },
);
const InvalidKeyBody = Type.Object(
  { error: Type.Literal('invalid api key') },
  { description: 'X-API-Key missing, unknown or revoked.', examples: [{ error: 'invalid api key' }] },
);

/** The HTTPS origin a filter value names, or undefined when it names none. */
function httpsOriginOf(value: string): string | undefined {
  const hasScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value);
  const url = URL.parse(hasScheme ? value : `https://${value}`);
  return url?.protocol === 'https:' && url.hostname !== '' ? url.origin : undefined;
}

/** Turns the validated query into a filter and a page, or into the 400's field errors. */
function parseListQuery(query: ListQuery) {
  const errors: Record<string, string> = {};
  const filter: AuditFilter = { branch: query.branch, monitorId: query.monitorId };
  if (query.origin !== undefined) {
    filter.origin = httpsOriginOf(query.origin);
    if (filter.origin === undefined) errors.origin = 'must be a host name or an https URL';
  }
  for (const field of ['since', 'until'] as const) {
    if (query[field] === undefined) continue;
    const date = new Date(query[field]);
    if (Number.isNaN(date.getTime())) errors[field] = 'is not a valid date-time';
    else filter[field] = date;
  }
  if (filter.since && filter.until && filter.until <= filter.since) errors.until = 'must be later than since';
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  if (query.cursor !== undefined && after === undefined) errors.cursor = 'is not a cursor this endpoint issued; pass nextCursor unchanged';
  return { errors, filter, page: { limit: query.limit ?? 20, after } };
}

export function auditsRoutes(deps: { db: Kysely<Database> }) {
  const authenticate = requireApiKey(deps.db);

  return async function register(app: FastifyInstance) {
    const typed = app.withTypeProvider<TypeBoxTypeProvider>();

    typed.get(
      '/api/v1/audits/:id',
      {
        onRequest: authenticate,
        schema: {
          summary: 'Read back one audit',
          description:
            'The audit exactly as the 201 of POST /api/v1/audit returned it: findings with their locations, and every ' +
            'checked control with severity, framework, requirement and location. An unknown id, an id that is not a UUID ' +
            'and another key’s audit all answer 404, so ids reveal nothing about other keys. Takes no audit rate-limit ' +
            'slot and carries no RateLimit-* headers.',
          security: [{ apiKey: [] }],
          params: Type.Object({ id: Type.String({ description: 'The `id` of the audit’s 201 response.' }) }),
          response: { 200: AuditResponse, 401: InvalidKeyBody, 404: NotFoundBody },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        // A malformed id is not found rather than a 400: an id is opaque, and the uuid column
        // would refuse it with a database error.
        const audit = Value.Check(AuditId, id) ? await findAudit(deps.db, request.apiKey!.id, id) : undefined;
        if (!audit) return reply.code(404).send({ error: 'not found' });
        return toAuditResponse(audit);
      },
    );

    typed.get(
      '/api/v1/audits',
      {
        onRequest: authenticate,
        preValidation: convertQuery(ListQuery),
        schema: {
          summary: 'List the key’s audits',
          description:
            'The calling key’s own audits, newest first (createdAt descending, then id descending), as summaries. ' +
            'Filters combine with AND. Keyset pagination: pass `nextCursor` as `cursor`, with the same filters, until ' +
            'it is null; audits created meanwhile never shift a page. Takes no audit rate-limit slot and carries no ' +
            'RateLimit-* headers.',
          security: [{ apiKey: [] }],
          querystring: ListQuery,
          response: {
            200: AuditList,
            400: Type.Object(FieldErrorsBody.properties, {
              description: 'Invalid query parameters, keyed by parameter name.',
              examples: [{ errors: { origin: 'must be a host name or an https URL' } }],
            }),
            401: InvalidKeyBody,
          },
        },
      },
      async (request, reply) => {
        const { errors, filter, page } = parseListQuery(request.query);
        if (Object.keys(errors).length > 0) return reply.code(400).send(fieldErrors(errors));
        const { audits, next } = await listAudits(deps.db, request.apiKey!.id, filter, page);
        return { items: audits.map(toAuditSummary), nextCursor: next ? encodeCursor(next) : null };
      },
    );
  };
}
