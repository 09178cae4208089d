// The dashboard list of webhooks: GET /api/v1/alerts/webhooks, every registration of every key,
// for an admin session. Items are the key-scoped registration plus the owner key's id and display
// prefix; the challenge, the raw key and its hash are in no schema here, so the serialiser could
// not emit them even by mistake.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import { listAllRegistrations, type OwnedRegistration } from '../../alerts/registrations.ts';
import { requireAdmin, type SessionSettings } from '../../auth/sessions.ts';
import type { Database } from '../../db/schema.ts';
import { decodeCursor, encodeCursor } from '../../db/keyset.ts';
import { convertQuery } from '../query.ts';
import { FieldErrorsBody, fieldErrors } from '../errors.ts';
import { EXAMPLE_ATTEMPT, EXAMPLE_REGISTRATION, RegistrationBody, registrationJson } from './webhooks.ts';

const MAX_LIMIT = 100;

const ListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: 20, description: `Page size, 1 to ${MAX_LIMIT}.` })),
    cursor: Type.Optional(Type.String({ maxLength: 200, description: 'The `nextCursor` of the previous page, unchanged.' })),
  },
  { additionalProperties: false },
);

const OwnedRegistrationBody = Type.Object(
  {
    id: RegistrationBody.properties.id,
    keyId: Type.String({ description: 'The owner API key’s id (as `keys list` shows it).' }),
    keyPrefix: Type.String({ description: 'The owner key’s display form: `ask_` and 4 characters, or `sha256:` and 8 hex characters for a seed key.' }),
    url: RegistrationBody.properties.url,
    trigger: RegistrationBody.properties.trigger,
    verifiedAt: RegistrationBody.properties.verifiedAt,
    createdAt: RegistrationBody.properties.createdAt,
    latestAttempt: RegistrationBody.properties.latestAttempt,
  },
  { description: 'A webhook registration with its owner key.' },
);

const AdminWebhookList = Type.Object(
  {
    items: Type.Array(OwnedRegistrationBody, { description: 'Newest first; ties on createdAt broken by id, descending.' }),
    nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next page; null on the last page.' }),
  },
  {
    description: 'One page of every key’s webhook registrations.',
    examples: [
      {
        items: [{ ...EXAMPLE_REGISTRATION, keyId: '9d3b7c2e-1f4a-4e8b-a6c5-0e1f2a3b4c5d', keyPrefix: 'ask_7Jzi', latestAttempt: EXAMPLE_ATTEMPT }],
        nextCursor: null,
      },
    ],
  },
);

const ForbiddenBody = Type.Object(
  { error: Type.Literal('forbidden') },
  {
    description: 'No admin session: no cookie, or its session ended, expired, belongs to a disabled user or to a member.',
    examples: [{ error: 'forbidden' }],
  },
);

function ownedRegistrationJson(registration: OwnedRegistration) {
  const { id, ...rest } = registrationJson(registration);
  return { id, keyId: registration.keyId, keyPrefix: registration.keyPrefix, ...rest };
}

export function adminWebhookRoutes(deps: { db: Kysely<Database>; config: SessionSettings }) {
  const adminOnly = requireAdmin(deps.db, deps.config);

  return async function register(app: FastifyInstance) {
    const typed = app.withTypeProvider<TypeBoxTypeProvider>();

    typed.get(
      '/api/v1/alerts/webhooks',
      {
        // onRequest: a request without an admin session is refused before its query is even validated.
        onRequest: adminOnly,
        preValidation: convertQuery(ListQuery),
        schema: {
          summary: 'List every webhook registration (admin)',
          description:
            'Every registration of every API key, newest first (createdAt descending, then id descending), each with its ' +
            'owner key’s id and display prefix and its latest delivery attempt. Needs an admin session cookie ' +
            '(POST /api/v1/session). Keyset pagination: pass `nextCursor` as `cursor` until it is null.',
          security: [{ adminSession: [] }],
          querystring: ListQuery,
          response: {
            200: AdminWebhookList,
            400: Type.Object(FieldErrorsBody.properties, {
              description: 'Invalid query parameters, keyed by parameter name.',
              examples: [{ errors: { cursor: 'is not a cursor this endpoint issued; pass nextCursor unchanged' } }],
            }),
            403: ForbiddenBody,
          },
        },
      },
      async (request, reply) => {
        const { limit = 20, cursor } = request.query;
        const after = cursor === undefined ? undefined : decodeCursor(cursor);
        if (cursor !== undefined && after === undefined) {
          return reply.code(400).send(fieldErrors({ cursor: 'is not a cursor this endpoint issued; pass nextCursor unchanged' }));
        }
        const page = await listAllRegistrations(deps.db, { limit, after });
        return { items: page.registrations.map(ownedRegistrationJson), nextCursor: page.next ? encodeCursor(page.next) : null };
      },
    );
  };
}
