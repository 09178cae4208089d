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
 * `announcePolicy` runs first (so a 401 carries RateLimit-Policy too); `takeSlot` after the key is
 * known, taking the slot before Fastify reads or validates the body, and answering 429 when the
 * window is spent.
 */
export function rateLimitHooks(rateLimiter: RateLimiter) {
  const policyHeader = `${rateLimiter.policy.limit};w=${rateLimiter.policy.windowSeconds}`;
  return {
    async announcePolicy(_request: FastifyRequest, reply: FastifyReply) {
      reply.header('RateLimit-Policy', policyHeader);
    },
    async takeSlot(request: FastifyRequest, reply: FastifyReply) {
      const slot = await rateLimiter.take(request.apiKey!.id);
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
