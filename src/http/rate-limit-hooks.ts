// The onRequest hooks and 429 body every rate-limited route shares (the audit route, webhook
// registration), so their answers carry the same headers and body.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { RateLimiter } from './rate-limit.ts';

export const RateLimitedBody = Type.Object(
  { error: Type.Literal('rate limit exceeded'), retryAfterSeconds: Type.Integer() },
  { description: 'Over the key’s quota for the current window.', examples: [{ error: 'rate limit exceeded', retryAfterSeconds: 42 }] },
);

/**
 * `announcePolicy` runs first, so a 401 carries RateLimit-Policy too: the default policy, as no
 * key (and so no key's own budget) is known. `authenticateAndTakeSlot` checks X-API-Key and takes
 * the slot in one statement, before Fastify reads or validates the body: 401
 * `{"error":"invalid api key"}` for a missing, unknown or revoked key (as `requireApiKey`), 429
 * when the window is spent. Once the key is known every RateLimit-* header, RateLimit-Policy
 * included, carries the key's figure (its own budget on the audit route, when it has one).
 */
export function rateLimitHooks(rateLimiter: RateLimiter) {
  const window = rateLimiter.policy.windowSeconds;
  const policyHeader = (limit: number) => `${limit};w=${window}`;
  const defaultPolicy = policyHeader(rateLimiter.policy.limit);
  return {
    async announcePolicy(_request: FastifyRequest, reply: FastifyReply) {
      reply.header('RateLimit-Policy', defaultPolicy);
    },
    async authenticateAndTakeSlot(request: FastifyRequest, reply: FastifyReply) {
      const header = request.headers['x-api-key'];
      const taken = await rateLimiter.authenticateAndTake(typeof header === 'string' ? header : undefined);
      if (!taken) return reply.code(401).send({ error: 'invalid api key' });
      request.apiKey = taken.apiKey;
      const slot = taken.decision;
      reply.header('RateLimit-Policy', policyHeader(slot.limit));
      reply.header('RateLimit-Limit', slot.limit);
      reply.header('RateLimit-Remaining', slot.remaining);
      reply.header('RateLimit-Reset', slot.resetSeconds);
      if (!slot.allowed) {
        reply.header('Retry-After', slot.resetSeconds);
        return reply.code(429).send({ error: 'rate limit exceeded', retryAfterSeconds: slot.resetSeconds });
      }
    },
  };
}
