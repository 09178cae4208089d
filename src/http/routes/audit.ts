// POST /api/v1/audit: auth → rate-limit slot → validate → crawl → analyse → persist → 201.
// Auth and the slot run in onRequest (one statement), before Fastify reads or validates the body, so a request
// that ends in 400, 422 or 502 still uses its slot (spec sections 4 and 8).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { runAudit, type AuditDeps } from '../../audit/run-audit.ts';
import { BRANCHES, WCAG_STANDARDS } from '../../audit/control.ts';
import { checkTargetUrl, type AddressPolicy } from '../../net/address-policy.ts';
import { OutboundError } from '../../net/safe-fetch.ts';
import { PageTooComplexError } from '../../audit/page.ts';
import { AnalysisCancelledError, AnalysisFailedError } from '../../audit/wcag/index.ts';
import { AnalysisAbandonedError, AnalysisQueueFullError, AnalysisTimeoutError } from '../../audit/analysis/pool.ts';
import { AuditResponse, toAuditResponse } from '../audit-response.ts';
import { ErrorBody, FieldErrorsBody, fieldErrors } from '../errors.ts';
import { AUDIT_DEFAULT_POLICY_HEADER, AUDIT_RATE_LIMIT_HEADERS, RETRY_AFTER_HEADER, withHeaders } from '../openapi.ts';
import type { RateLimiter } from '../rate-limit.ts';
import { RateLimitedBody, rateLimitHooks } from '../rate-limit-hooks.ts';

const AuditRequestBody = Type.Object(
  {
    branch: Type.Optional(Type.Enum([...BRANCHES], { default: 'wcag', description: 'Audit lens. Default `wcag`.' })),
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'Absolute https URL of a public page. Loopback, private and internal hosts are refused with 400.',
    }),
    standard: Type.Optional(
      Type.Enum([...WCAG_STANDARDS], { description: 'Only with branch `wcag` (default `WCAG21AA`); a 400 with any other branch.' }),
    ),
    includeWarnings: Type.Optional(
      Type.Boolean({ default: true, description: 'When false, only error-severity findings are returned and persisted.' }),
    ),
  },
  {
    additionalProperties: false,
    examples: [
      { url: 'https://example.com/' },
      { branch: 'wcag', standard: 'WCAG22AA', url: 'https://example.com/checkout' },
      { branch: 'ai-governance', url: 'https://example.com/assistant' },
      { branch: 'privacy', url: 'https://example.com/', includeWarnings: false },
    ],
  },
);
type AuditRequestBody = Static<typeof AuditRequestBody>;

export interface AuditRouteDeps extends AuditDeps {
  rateLimiter: RateLimiter;
  addressPolicy: AddressPolicy;
}

export function auditRoutes(deps: AuditRouteDeps) {
  const { announcePolicy, authenticateAndTakeSlot } = rateLimitHooks(deps.rateLimiter);

  return async function register(app: FastifyInstance) {
    app.withTypeProvider<TypeBoxTypeProvider>().post(
      '/api/v1/audit',
      {
        onRequest: [announcePolicy, authenticateAndTakeSlot],
        bodyLimit: 16 * 1024,
        schema: {
          summary: 'Audit one public HTTPS page',
          description:
            'Crawls the page’s static HTML (no JavaScript), evaluates the branch’s controls and persists the audit. ' +
            'Every authenticated request takes a rate-limit slot before validation, so 400, 422 and 502 answers count too. ' +
            'Every answer after authentication carries RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset and RateLimit-Policy, each with the ' +
            'key’s own audit budget when it has one (set with `keys set-rate-limit` or in the dashboard), else AUDIT_RATE_LIMIT; a 401 carries ' +
            'RateLimit-Policy only, with the default. ' +
            'The privacy branch follows the selected policy link (an http:// link as https://): an HTTP error, an empty page, or a link or redirect to an address ' +
            'the service cannot reach or does not fetch (a refused address and a name that does not resolve, or not in time, read the same) fails ' +
            'privacy.privacy-policy-reachable; a timeout, connection or TLS failure once the name resolved is inconclusive. ' +
            'No response carries what the network said (addresses, ranges, socket or TLS errors); the operator log does. ' +
            'With an AI step configured (AUDIT_AI_BASE_URL), the wcag branch asks a model the judgement questions of the requested standard that apply ' +
            '(1.1.1, 2.4.2, 2.4.4, 2.4.6, 3.1.1) after its rules; its answers are warnings with `source: "ai"` and the response says `ai.used: true` and the model. ' +
            'When the model’s answer still does not conform after one retry, or the provider fails or times out twice, the answer is 502 and nothing is stored. ' +
            'A client that closes the connection while the AI step runs cancels its call to the model: nothing is stored, and there is no answer. ' +
            'The analysis runs in a pool of worker threads (AUDIT_ANALYSIS_THREADS) behind a bounded queue (AUDIT_ANALYSIS_QUEUE): when every thread is busy ' +
            'and the queue is full the answer is 503 with Retry-After. Each analysis has a time budget in its thread (AUDIT_ANALYSIS_TIMEOUT_MS, counted from ' +
            'when it starts running, not while it waits): a page over it is answered 422 and nothing is stored. A client that closes the connection while its ' +
            'analysis waits or runs cancels it: nothing is stored, and there is no answer.',
          security: [{ apiKey: [] }],
          body: AuditRequestBody,
          response: {
            201: withHeaders(AuditResponse, AUDIT_RATE_LIMIT_HEADERS),
            400: withHeaders(
              Type.Object(FieldErrorsBody.properties, {
                description: 'The body breaks the contract (e.g. `standard` with a branch other than `wcag`), or the URL’s host is itself non-public.',
                examples: [{ errors: { url: 'must be an absolute https URL' } }],
              }),
              AUDIT_RATE_LIMIT_HEADERS,
            ),
            401: withHeaders(
              Type.Object(ErrorBody.properties, { description: 'X-API-Key missing, unknown or revoked.', examples: [{ error: 'invalid api key' }] }),
              AUDIT_DEFAULT_POLICY_HEADER,
            ),
            422: withHeaders(
              Type.Object({ error: Type.Literal('unreachable or blocked') }, {
                description:
                  'The target was unreachable, refused by the address policy at DNS or connect time, failed TLS, answered 4xx/5xx, was not HTML, ' +
                  'or exceeded a bound (time, size after decompression, elements nested more than 2048 deep, or an analysis longer than AUDIT_ANALYSIS_TIMEOUT_MS). ' +
                  'Nothing is persisted.',
                examples: [{ error: 'unreachable or blocked' }],
              }),
              AUDIT_RATE_LIMIT_HEADERS,
            ),
            429: withHeaders(RateLimitedBody, { ...AUDIT_RATE_LIMIT_HEADERS, ...RETRY_AFTER_HEADER }),
            502: withHeaders(
              Type.Object({ error: Type.Literal('analysis failed') }, {
                description:
                  'WCAG branch with an AI step configured only: the AI step’s structured output did not conform (schema, or a control outside the requested standard, ' +
                  'a selector naming no element of the page, empty or over-long evidence) after its one retry with the errors fed back, or the AI provider failed ' +
                  'or timed out on both calls. Nothing is persisted (no audit, no failure event) and the rate-limit slot stays taken. ' +
                  'The body never says why; the operator log does (never the AI key).',
                examples: [{ error: 'analysis failed' }],
              }),
              AUDIT_RATE_LIMIT_HEADERS,
            ),
            503: withHeaders(
              Type.Object({ error: Type.Literal('service unavailable') }, {
                description:
                  'Every analysis thread is busy and AUDIT_ANALYSIS_QUEUE audits already wait for one. Nothing is crawled or persisted, and the ' +
                  'rate-limit slot stays taken. Retry-After says when the running analyses will all have ended (one analysis budget). ' +
                  'Also while the database cannot be reached or does not answer within its bound (a restart, a partition): the audit is not stored ' +
                  'and no event is queued (Retry-After 5; see the README on database faults).',
                examples: [{ error: 'service unavailable' }],
              }),
              { ...AUDIT_RATE_LIMIT_HEADERS, ...RETRY_AFTER_HEADER },
            ),
          },
        },
      },
      async (request, reply) => {
        const body = request.body as AuditRequestBody;
        const branch = body.branch ?? 'wcag';
        const errors: Record<string, string> = {};
        if (body.standard !== undefined && branch !== 'wcag') errors.standard = 'is only allowed with branch wcag';
        const target = checkTargetUrl(body.url, deps.addressPolicy);
        if (!target.ok) errors.url = target.message;
        if (!target.ok || Object.keys(errors).length > 0) return reply.code(400).send(fieldErrors(errors));

        // The client closing the connection before its answer cancels the AI step's call in flight.
        // (Fastify's request.signal is no help: it aborts once the body has been read.)
        const clientGone = new AbortController();
        reply.raw.once('close', () => {
          if (!reply.raw.writableEnded) clientGone.abort();
        });
        try {
          const audit = await runAudit(
            deps,
            {
              apiKeyId: request.apiKey!.id,
              url: target.url,
              branch,
              standard: branch === 'wcag' ? (body.standard ?? 'WCAG21AA') : undefined,
              includeWarnings: body.includeWarnings ?? true,
            },
            request.log,
            clientGone.signal,
          );
          return reply.code(201).send(toAuditResponse(audit));
        } catch (error) {
          if (error instanceof AnalysisCancelledError) {
            request.log.info({ aiCallsAborted: error.attempt > 0 }, 'client closed the connection: WCAG AI step cancelled, nothing persisted');
            // Nobody is left to answer; the slot stays taken, as for any request that reached analysis.
            return reply.hijack();
          }
          if (error instanceof AnalysisAbandonedError) {
            request.log.info({ stage: error.stage }, `client closed the connection: analysis cancelled while ${error.stage}, nothing persisted`);
            return reply.hijack();
          }
          if (error instanceof AnalysisQueueFullError) {
            request.log.warn({ reason: 'queue full', retryAfterSeconds: error.retryAfterSeconds }, 'analysis queue full: answering 503, nothing crawled or persisted');
            return reply.code(503).header('Retry-After', String(error.retryAfterSeconds)).send({ error: 'service unavailable' });
          }
          if (error instanceof AnalysisTimeoutError) {
            // The thread was terminated and is replaced on demand; the page's cost is the operator's to see.
            request.log.warn({ reason: error.reason, budgetMs: error.budgetMs }, 'analysis exceeded its time budget: thread stopped, answering 422, nothing persisted');
            return reply.code(422).send({ error: 'unreachable or blocked' });
          }
          if (error instanceof AnalysisFailedError) {
            // The attempts' details are bounded and redacted by the AI step; the key is never in them.
            request.log.warn(
              { reason: error.reason, attempts: error.attempts.map((a) => ({ attempt: a.attempt, failure: a.failure, detail: a.detail })) },
              'WCAG AI step failed after its retry: answering 502, nothing persisted',
            );
            return reply.code(502).send({ error: 'analysis failed' });
          }
          if (error instanceof OutboundError || error instanceof PageTooComplexError) {
            request.log.info({ reason: error.reason, detail: error.message }, 'crawl refused, failed or exceeded a bound');
            return reply.code(422).send({ error: 'unreachable or blocked' });
          }
          throw error;
        }
      },
    );
  };
}
