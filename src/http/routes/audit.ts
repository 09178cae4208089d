// POST /api/v1/audit: auth → rate-limit slot → validate → crawl → analyse → persist → 201.
// Auth and the slot run in onRequest, before Fastify reads or validates the body, so a request
// that ends in 400, 422 or 502 still uses its slot (spec sections 4 and 8).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { authenticateApiKey, type ApiKeyIdentity } from '../../auth/api-keys.ts';
import { runAudit, type AuditDeps } from '../../audit/run-audit.ts';
import { branchAnalyses } from '../../audit/branches.ts';
import { BRANCHES, WCAG_STANDARDS } from '../../audit/control.ts';
import type { StoredAudit } from '../../audit/audit-store.ts';
import { checkTargetUrl, type AddressPolicy } from '../../net/address-policy.ts';
import { OutboundError } from '../../net/safe-fetch.ts';
import { PageTooComplexError } from '../../audit/page.ts';
import { ErrorBody, FieldErrorsBody, fieldErrors } from '../errors.ts';
import type { RateLimiter } from '../rate-limit.ts';

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
  { additionalProperties: false },
);
type AuditRequestBody = Static<typeof AuditRequestBody>;

const Location = Type.Object({
  selector: Type.String({ description: 'CSS selector of the element the evidence is about.' }),
  snippet: Type.String({ description: 'The element’s markup, at most 200 characters.' }),
});

const Finding = Type.Object({
  control: Type.String({ description: 'Control id, e.g. `ai-governance.ai-disclosure-notice`.' }),
  status: Type.Enum(['fail', 'inconclusive'], {
    description: '`fail`: the control’s signal is absent or wrong. `inconclusive`: static HTML cannot decide (always a warning).',
  }),
  severity: Type.Enum(['error', 'warning']),
  evidence: Type.String({
    description: 'What matched (quoted, ≤ 200 characters) or what was looked for and not found. Never network detail (addresses, ranges, socket or TLS errors).',
  }),
  location: Type.Optional(Location),
});

const CheckedControl = Type.Object({
  control: Type.String(),
  framework: Type.String({ description: 'Framework function (AI governance: Govern, Map, Measure, Manage).' }),
  requirement: Type.String(),
  outcome: Type.Enum(['pass', 'fail', 'inconclusive'], { description: '`pass` means a visible signal was found.' }),
  severity: Type.Enum(['error', 'warning'], { description: 'Severity a failure of this control carries.' }),
  evidence: Type.String({ description: 'For a pass, the visible signal that was found (quoted); otherwise what was missing.' }),
  location: Type.Optional(Location),
});

const AuditResponse = Type.Object({
  id: Type.String({ format: 'uuid' }),
  url: Type.String({ description: 'The URL as requested (normalised by the WHATWG URL parser).' }),
  finalUrl: Type.String({ description: 'The URL after redirects, whose HTML was analysed.' }),
  branch: Type.Enum([...BRANCHES]),
  standard: Type.Optional(Type.Enum([...WCAG_STANDARDS], { description: 'Present for `wcag` only.' })),
  createdAt: Type.String({ format: 'date-time' }),
  totals: Type.Object({
    errors: Type.Integer({ description: 'Findings of severity error.' }),
    warnings: Type.Integer({ description: 'Findings of severity warning, including inconclusive ones.' }),
    inconclusive: Type.Integer({ description: 'Warnings with status inconclusive: for human review.' }),
  }),
  findings: Type.Array(Finding, { description: 'Failed and inconclusive controls. With includeWarnings=false, errors only.' }),
  controls: Type.Array(CheckedControl, { description: 'Every control that was checked, with its outcome, passes included.' }),
});

const RateLimitedBody = Type.Object({ error: Type.Literal('rate limit exceeded'), retryAfterSeconds: Type.Integer() });

export function toAuditResponse(audit: StoredAudit) {
  return {
    id: audit.id,
    url: audit.url.href,
    finalUrl: audit.crawled.finalUrl,
    branch: audit.branch,
    ...(audit.standard ? { standard: audit.standard } : {}),
    createdAt: audit.createdAt.toISOString(),
    totals: audit.result.totals,
    findings: audit.result.findings,
    controls: audit.result.controls,
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    apiKey?: ApiKeyIdentity;
  }
}

export interface AuditRouteDeps extends AuditDeps {
  rateLimiter: RateLimiter;
  addressPolicy: AddressPolicy;
}

export function auditRoutes(deps: AuditRouteDeps) {
  const { rateLimiter } = deps;
  const policyHeader = `${rateLimiter.policy.limit};w=${rateLimiter.policy.windowSeconds}`;

  async function authenticateAndTakeSlot(request: FastifyRequest, reply: FastifyReply) {
    reply.header('RateLimit-Policy', policyHeader);
    const header = request.headers['x-api-key'];
    const apiKey = await authenticateApiKey(deps.db, typeof header === 'string' ? header : undefined);
    if (!apiKey) return reply.code(401).send({ error: 'invalid api key' });
    request.apiKey = apiKey;
    const slot = await rateLimiter.take(apiKey.id);
    reply.header('RateLimit-Limit', slot.limit);
    reply.header('RateLimit-Remaining', slot.remaining);
    reply.header('RateLimit-Reset', slot.resetSeconds);
    if (!slot.allowed) {
      reply.header('Retry-After', slot.resetSeconds);
      return reply.code(429).send({ error: 'rate limit exceeded', retryAfterSeconds: slot.resetSeconds });
    }
  }

  return async function register(app: FastifyInstance) {
    app.withTypeProvider<TypeBoxTypeProvider>().post(
      '/api/v1/audit',
      {
        onRequest: authenticateAndTakeSlot,
        bodyLimit: 16 * 1024,
        schema: {
          summary: 'Audit one public HTTPS page',
          description:
            'Crawls the page’s static HTML (no JavaScript), evaluates the branch’s controls and persists the audit. ' +
            'Every authenticated request takes a rate-limit slot before validation, so 400, 422 and 502 answers count too. ' +
            'Every answer after authentication carries RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset and RateLimit-Policy. ' +
            'The privacy branch follows the selected policy link (an http:// link as https://): an HTTP error, an empty page, a redirect to an address ' +
            'the service does not fetch or a host that does not exist fails privacy.privacy-policy-reachable; a timeout, connection or TLS failure is inconclusive. ' +
            'No response carries what the network said (addresses, ranges, socket or TLS errors); the operator log does.',
          security: [{ apiKey: [] }],
          body: AuditRequestBody,
          response: {
            201: AuditResponse,
            400: FieldErrorsBody,
            401: ErrorBody,
            422: Type.Object({ error: Type.Literal('unreachable or blocked') }, {
              description: 'The target was unreachable, refused by the address policy at DNS or connect time, failed TLS, answered 4xx/5xx, was not HTML, or exceeded a bound (time, size after decompression, or elements nested more than 2048 deep).',
            }),
            429: RateLimitedBody,
          },
        },
      },
      async (request, reply) => {
        const body = request.body as AuditRequestBody;
        const branch = body.branch ?? 'wcag';
        const errors: Record<string, string> = {};
        if (body.standard !== undefined && branch !== 'wcag') errors.standard = 'is only allowed with branch wcag';
        if (!branchAnalyses[branch].available) errors.branch = `branch ${branch} is not available yet`;
        const target = checkTargetUrl(body.url, deps.addressPolicy);
        if (!target.ok) errors.url = target.message;
        if (!target.ok || Object.keys(errors).length > 0) return reply.code(400).send(fieldErrors(errors));

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
          );
          return reply.code(201).send(toAuditResponse(audit));
        } catch (error) {
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
