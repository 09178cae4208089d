// The X-API-Key check every keyed route runs in onRequest, before Fastify reads the body:
// unknown, revoked and missing keys all get the same 401.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { authenticateApiKey, type ApiKeyIdentity } from '../auth/api-keys.ts';
import type { Database } from '../db/schema.ts';

declare module 'fastify' {
  interface FastifyRequest {
    apiKey?: ApiKeyIdentity;
  }
}

/** An onRequest hook that sets `request.apiKey` or answers 401 `{"error":"invalid api key"}`. */
export function requireApiKey(db: Kysely<Database>) {
  return async function authenticate(request: FastifyRequest, reply: FastifyReply) {
    const header = request.headers['x-api-key'];
    const apiKey = await authenticateApiKey(db, typeof header === 'string' ? header : undefined);
    if (!apiKey) return reply.code(401).send({ error: 'invalid api key' });
    request.apiKey = apiKey;
  };
}
