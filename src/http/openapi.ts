// What the OpenAPI description says beyond the routes' own schemas: the headers every answer
// carries, the rate-limit headers of the audit route, and examples. One place, so a route's
// schema stays about its body and a header cannot be documented on one route and forgotten on
// the next.
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { Type, type TSchema } from 'typebox';

type HeaderDocs = Record<string, { type: 'string' | 'integer'; description: string }>;

export const RATE_LIMIT_POLICY_HEADER: HeaderDocs = {
  'RateLimit-Policy': { type: 'string', description: 'The key’s quota: `<limit>;w=<window seconds>`, e.g. `10;w=60`.' },
};

/** On every answer of a rate-limited route once the key is known (a 401 has the policy only). */
export const RATE_LIMIT_HEADERS: HeaderDocs = {
  ...RATE_LIMIT_POLICY_HEADER,
  'RateLimit-Limit': { type: 'integer', description: 'Requests allowed per window.' },
  'RateLimit-Remaining': { type: 'integer', description: 'Requests left in the current window.' },
  'RateLimit-Reset': { type: 'integer', description: 'Seconds until the window ends.' },
};

/**
 * The audit route's: a key may carry its own audit budget (`keys set-rate-limit`, the dashboard),
 * which replaces AUDIT_RATE_LIMIT in every header once the key is known.
 */
export const AUDIT_RATE_LIMIT_HEADERS: HeaderDocs = {
  'RateLimit-Policy': {
    type: 'string',
    description: 'The key’s audit quota: `<limit>;w=<window seconds>`, e.g. `10;w=60`. The limit is the key’s own budget when it has one, else AUDIT_RATE_LIMIT; the window is AUDIT_RATE_WINDOW_SECONDS.',
  },
  'RateLimit-Limit': { type: 'integer', description: 'Requests allowed per window: the key’s own budget when it has one, else AUDIT_RATE_LIMIT.' },
  'RateLimit-Remaining': RATE_LIMIT_HEADERS['RateLimit-Remaining']!,
  'RateLimit-Reset': RATE_LIMIT_HEADERS['RateLimit-Reset']!,
};

/** The audit route's 401: no key is known, so the policy is the default. */
export const AUDIT_DEFAULT_POLICY_HEADER: HeaderDocs = {
  'RateLimit-Policy': {
    type: 'string',
    description: 'The default audit quota (AUDIT_RATE_LIMIT per AUDIT_RATE_WINDOW_SECONDS), e.g. `10;w=60`: no key is known, so no key’s own budget applies.',
  },
};

export const RETRY_AFTER_HEADER: HeaderDocs = {
  'Retry-After': { type: 'integer', description: 'Seconds until a request can succeed again.' },
};

/** The schema with response headers documented (@fastify/swagger reads `headers` beside the body schema). */
export function withHeaders<T extends TSchema>(schema: T, headers: HeaderDocs): T {
  return { ...schema, headers: { ...(schema as { headers?: HeaderDocs }).headers, ...headers } };
}

type TransformObject = NonNullable<FastifyDynamicSwaggerOptions['transformObject']>;

/**
 * @fastify/swagger's transformObject, for what every operation shares: X-Request-Id on every
 * response and Cache-Control on every /api/ one (the onSend hook in app.ts sets both), and the 400 that any route gives a request the
 * HTTP layer refuses (no Host header, a malformed request line or header).
 */
export const documentCommonAnswers: TransformObject = (document) => {
  const spec = 'openapiObject' in document ? document.openapiObject : document.swaggerObject;
  for (const [route, operations] of Object.entries(spec.paths ?? {})) {
    for (const operation of Object.values(operations ?? {})) {
      if (typeof operation !== 'object' || operation === null || !('responses' in operation)) continue;
      const responses = (operation.responses ??= {}) as Record<string, { description?: string; content?: object; headers?: object }>;
      responses['400'] ??= {
        description: 'The HTTP layer refused the request (no Host header, a malformed request line or header).',
        content: { 'application/json': { schema: MALFORMED_REQUEST, example: { error: 'malformed request' } } },
      };
      const api = route.startsWith('/api/');
      if (api) responses['503'] ??= SERVICE_UNAVAILABLE;
      for (const response of Object.values(responses)) {
        response.headers = {
          ...response.headers,
          'X-Request-Id': { schema: { type: 'string' }, description: 'The request’s id, also on the operator’s log lines for it.' },
          // The onSend hook in app.ts sets it on every /api/ answer.
          ...(api ? { 'Cache-Control': { schema: { type: 'string', const: 'no-store' }, description: 'Every API answer is about one caller: never cached.' } } : {}),
        };
      }
    }
  }
  return spec;
};

/** Any API route while its database cannot be reached or answer within its bound (src/db/unavailable.ts). */
const SERVICE_UNAVAILABLE = {
  description:
    'The database could not be reached or did not answer within its bound (a restart, a partition): the request was not carried out ' +
    '(an audit is not stored, an event not queued), and it can be sent again after Retry-After. The service recovers by itself ' +
    'when the database is back; /healthz stays 200 meanwhile and /readyz answers 503.',
  headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait before trying again.' } },
  content: { 'application/json': { schema: { type: 'object', properties: { error: { type: 'string', const: 'service unavailable' } }, required: ['error'] }, example: { error: 'service unavailable' } } },
};

/** `{"error": …}` or `{"errors": {…}}`: the shapes of a refused request. */
const MALFORMED_REQUEST = {
  oneOf: [
    { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] },
    { type: 'object', properties: { errors: { type: 'object', additionalProperties: { type: 'string' } } }, required: ['errors'] },
  ],
};

/** `/healthz` and `/readyz` answer with a status word; a 503 is the only failure they report. */
export const HealthBody = (status: string, description: string) =>
  Type.Object({ status: Type.Literal(status) }, { description, examples: [{ status }] });
