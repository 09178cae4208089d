// Alert-webhook registration and its reads: POST/GET /api/v1/alerts/webhook,
// DELETE /api/v1/alerts/webhook/{id}, GET /api/v1/alerts/webhook/{id}/attempts, and
// POST /api/v1/alerts/webhook/{id}/attempts/{deliveryId}/resend (requeues a finished delivery).
// POST sends a request to an address the client chose, so it is bounded like the audit route:
// auth and a rate-limit slot (its own budget) before the body is read, then a per-key maximum
// checked before anything is sent. The challenge (the signing secret) is in no schema below, so
// the serialiser could not emit it even by mistake.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { TRIGGER_BRANCHES, TRIGGER_ON, TRIGGER_SEVERITIES } from '../../alerts/matching.ts';
import { FAILURE_REASONS } from '../../alerts/outbound.ts';
import { resendDelivery } from '../../alerts/resend.ts';
import {
  countRegistrations,
  deleteRegistration,
  listAttempts,
  listRegistrations,
  saveRegistration,
  verifyDestination,
  type Attempt,
  type LatestAttempt,
  type Registration,
} from '../../alerts/registrations.ts';
import type { WebhookConfig } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { MAX_URL_LENGTH } from '../../net/address-policy.ts';
import type { SafeFetcher } from '../../net/safe-fetch.ts';
import { requireApiKey } from '../api-key-auth.ts';
import { decodeCursor, encodeCursor } from '../../db/keyset.ts';
import { convertQuery } from '../query.ts';
import { FieldErrorsBody, fieldErrors } from '../errors.ts';
import { RATE_LIMIT_HEADERS, RATE_LIMIT_POLICY_HEADER, RETRY_AFTER_HEADER, withHeaders } from '../openapi.ts';
import type { RateLimiter } from '../rate-limit.ts';
import { RateLimitedBody, rateLimitHooks } from '../rate-limit-hooks.ts';

const MAX_LIMIT = 100;
const Uuid = Type.String({ format: 'uuid' });

const TriggerOn = Type.Enum([...TRIGGER_ON], {
  description:
    '`every-audit` (the default, and every registration stored before it existed): an event after every audit with matching ' +
    'failures. `new-failures`: only when the audit has matching failures that the previous audit of the same page (same key, ' +
    'URL, branch and standard) did not have; `failures` then holds only those findings, and the event carries `changes` ' +
    '(counts of new, fixed and persisting failed occurrences at the threshold, and the audit compared with).',
});

const TriggerFields = {
  severity: Type.Enum([...TRIGGER_SEVERITIES], {
    description: 'Minimum severity: `medium` receives warnings and errors, `high` errors only, `critical` nothing (audits emit no critical findings).',
  }),
  branch: Type.Enum([...TRIGGER_BRANCHES], { description: 'Audit branch: `accessibility` (wcag), `ai_gov` (ai-governance) or `privacy`.' }),
};

/** As registered: `on` may be left out. */
const Trigger = Type.Object({ ...TriggerFields, on: Type.Optional(TriggerOn) }, { additionalProperties: false });

/** As read back: `on` is always shown. */
const TriggerBody = Type.Object({ ...TriggerFields, on: TriggerOn });

const RegisterBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: MAX_URL_LENGTH, description: 'Absolute https URL of the receiver. An http URL is a 400 and nothing is sent.' }),
    trigger: Trigger,
  },
  {
    additionalProperties: false,
    description: 'All fields are required but `trigger.on` (default `every-audit`); unknown fields (an owner or key id included) are refused.',
    examples: [
      { url: 'https://hooks.example.com/svc', trigger: { severity: 'high', branch: 'privacy' } },
      { url: 'https://hooks.example.com/a11y', trigger: { severity: 'medium', branch: 'accessibility', on: 'new-failures' } },
    ],
  },
);
type RegisterBody = Static<typeof RegisterBody>;

/** Every reason an attempt can carry (README, "Reasons"); a verification failure never carries the legacy one. */
const ATTEMPT_REASONS = [...Object.values(FAILURE_REASONS), 'non-2xx response (status N)'];
const listed = (reasons: readonly string[]): string => reasons.map((r) => `\`${r}\``).join(', ');
const UNREACHABLE_NOTE =
  `\`${FAILURE_REASONS.unreachable}\` is one reason for a refused host or address and for a name that does not resolve (or not in time), ` +
  'so that the answer never tells which names exist inside the operator’s network. Attempts recorded before it existed, ' +
  'with `unsafe destination` or `DNS failure`, are shown with it.';

const LatestAttemptBody = Type.Object({
  deliveryId: Type.String({ description: 'The attempt’s id, as sent in X-Svc-Delivery-Id and the body.' }),
  outcome: Type.Enum(['delivered', 'failed']),
  statusCode: Type.Union([Type.Integer(), Type.Null()], { description: 'The receiver’s status; null when no answer came.' }),
  reason: Type.Union([Type.String(), Type.Null()], { description: `Why it failed; null when delivered. One of: ${listed(ATTEMPT_REASONS)}. ${UNREACHABLE_NOTE}` }),
  attemptedAt: Type.String({ format: 'date-time' }),
  durationMs: Type.Integer(),
});

export const EXAMPLE_ATTEMPT = {
  deliveryId: '6a1f0f3e-2b7c-4d7e-9f55-1c2d3e4f5a6b',
  outcome: 'failed',
  statusCode: 503,
  reason: 'non-2xx response (status 503)',
  attemptedAt: '2026-03-01T10:00:16.020Z',
  durationMs: 41,
};

export const EXAMPLE_REGISTRATION = {
  id: '2f6d8f0a-5a55-4a8e-b1f4-6f1c2d3e4f50',
  url: 'https://hooks.example.com/svc',
  trigger: { severity: 'high', branch: 'privacy', on: 'every-audit' },
  verifiedAt: '2026-03-01T10:00:00.412Z',
  createdAt: '2026-03-01T10:00:00.415Z',
  latestAttempt: null,
};

export const RegistrationBody = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    trigger: TriggerBody,
    verifiedAt: Type.String({ format: 'date-time' }),
    createdAt: Type.String({ format: 'date-time' }),
    latestAttempt: Type.Union([LatestAttemptBody, Type.Null()], { description: 'The latest delivery attempt; null until the first one.' }),
  },
  {
    description: 'A verified webhook registration.',
    examples: [EXAMPLE_REGISTRATION],
  },
);

const AttemptBody = Type.Object({
  ...LatestAttemptBody.properties,
  auditId: Type.String({ description: 'The audit whose failure event this was; the same on every retry (deduplicate on it).' }),
  attemptNumber: Type.Integer({ description: '1 for the first try of a delivery, 2 for its first retry, …' }),
  responseBody: Type.Union([Type.String(), Type.Null()], { description: 'At most 1 KiB of the receiver’s answer; null when none came.' }),
});

const AttemptList = Type.Object(
  {
    items: Type.Array(AttemptBody, { description: 'Newest first; ties on attemptedAt broken by deliveryId, descending.' }),
    nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next page; null on the last page.' }),
  },
  {
    description: 'One page of the registration’s delivery attempts.',
    examples: [{ items: [{ ...EXAMPLE_ATTEMPT, auditId: '0b6f3c1e-8d2a-4f4b-9c1d-2e5a7b9c0d11', attemptNumber: 1, responseBody: 'upstream unavailable' }], nextCursor: null }],
  },
);

const AttemptsQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: 20, description: `Page size, 1 to ${MAX_LIMIT}.` })),
    cursor: Type.Optional(Type.String({ maxLength: 200, description: 'The `nextCursor` of the previous page, unchanged.' })),
  },
  { additionalProperties: false },
);

const VERIFICATION_REASONS = ATTEMPT_REASONS.filter((r) => r !== FAILURE_REASONS.legacy);

const VerificationFailedBody = Type.Object(
  {
    error: Type.Literal('webhook verification failed'),
    reason: Type.String({ description: `One of: ${listed(VERIFICATION_REASONS)}. ${UNREACHABLE_NOTE}` }),
  },
  {
    description: 'The destination is unsafe or did not answer the verification ping with a 2xx in time. Nothing was saved.',
    examples: [
      { error: 'webhook verification failed', reason: 'non-2xx response (status 503)' },
      { error: 'webhook verification failed', reason: FAILURE_REASONS.unreachable },
    ],
  },
);
const LimitBody = Type.Object(
  { error: Type.Literal('webhook limit reached') },
  { description: 'The key already holds the maximum number of registrations (AUDIT_MAX_WEBHOOKS_PER_KEY). Nothing was sent.', examples: [{ error: 'webhook limit reached' }] },
);
const InternalBody = Type.Object(
  { error: Type.Literal('internal server error') },
  { description: 'Unexpected server or persistence failure.', examples: [{ error: 'internal server error' }] },
);
const InvalidKeyBody = Type.Object(
  { error: Type.Literal('invalid api key') },
  { description: 'X-API-Key missing, unknown or revoked.', examples: [{ error: 'invalid api key' }] },
);
const NotFoundBody = Type.Object(
  { error: Type.Literal('not found') },
  { description: 'Unknown id, an id that is not a UUID, or another key’s registration.', examples: [{ error: 'not found' }] },
);

const ResendParams = Type.Object({
  id: Type.String({ maxLength: 100, description: 'The registration’s `id`.' }),
  deliveryId: Type.String({
    maxLength: 100,
    description: 'The `deliveryId` of any attempt of the delivery, as GET …/attempts lists it (and X-Svc-Delivery-Id carried it).',
  }),
});
const ResentBody = Type.Object(
  {
    state: Type.Literal('pending', { description: 'The delivery’s state now: queued to be sent again.' }),
    auditId: Type.String({ description: 'The audit whose event is resent (the event’s `audit.id`).' }),
    attemptNumber: Type.Integer({ description: 'The `attemptNumber` the resent try will carry in the attempts list.' }),
  },
  {
    description: 'Requeued: the delivery worker sends the stored event again shortly, as a new attempt.',
    examples: [{ state: 'pending', auditId: '0b6f3c1e-8d2a-4f4b-9c1d-2e5a7b9c0d11', attemptNumber: 9 }],
  },
);
const PendingBody = Type.Object(
  { error: Type.Literal('delivery pending') },
  {
    description: 'The delivery is still pending (waiting for its next retry, or being sent now); it can be resent once it is delivered or failed.',
    examples: [{ error: 'delivery pending' }],
  },
);
const UUID_MESSAGE = 'must be a UUID';

const iso = (date: Date) => date.toISOString();

function latestAttemptJson(attempt: LatestAttempt) {
  return {
    deliveryId: attempt.deliveryId,
    outcome: attempt.outcome,
    statusCode: attempt.statusCode,
    reason: attempt.reason,
    attemptedAt: iso(attempt.attemptedAt),
    durationMs: attempt.durationMs,
  };
}

export function registrationJson(registration: Registration) {
  return {
    id: registration.id,
    url: registration.url,
    trigger: registration.trigger,
    verifiedAt: iso(registration.verifiedAt),
    createdAt: iso(registration.createdAt),
    latestAttempt: registration.latestAttempt ? latestAttemptJson(registration.latestAttempt) : null,
  };
}

function attemptJson(attempt: Attempt) {
  return { ...latestAttemptJson(attempt), auditId: attempt.auditId, attemptNumber: attempt.attemptNumber, responseBody: attempt.responseBody };
}

/** The receiver URL, or the 400's message. Host safety is judged at send time (a 422 then). */
function parseWebhookUrl(raw: string): URL | string {
  if (/[\u0000-\u001f\u007f]/.test(raw)) return 'must not contain control characters such as tabs or line breaks';
  const url = URL.parse(raw.trim());
  if (!url) return 'must be an absolute https URL';
  if (url.protocol !== 'https:') return 'must be an https URL; nothing is sent to other schemes';
  if (url.username !== '' || url.password !== '') return 'must not carry a user name or password';
  if (url.href.length > MAX_URL_LENGTH) return `must be at most ${MAX_URL_LENGTH} characters`;
  return url;
}

export interface WebhookRouteDeps {
  db: Kysely<Database>;
  fetcher: SafeFetcher;
  config: WebhookConfig;
  /** The registration budget (AUDIT_WEBHOOK_RATE_LIMIT), separate from the audit route's. */
  rateLimiter: RateLimiter;
}

export function webhookRoutes(deps: WebhookRouteDeps) {
  const authenticate = requireApiKey(deps.db);
  const { announcePolicy, authenticateAndTakeSlot } = rateLimitHooks(deps.rateLimiter);

  return async function register(app: FastifyInstance) {
    const typed = app.withTypeProvider<TypeBoxTypeProvider>();

    typed.post(
      '/api/v1/alerts/webhook',
      {
        onRequest: [announcePolicy, authenticateAndTakeSlot],
        bodyLimit: 16 * 1024,
        schema: {
          summary: 'Register a verified alert webhook',
          description:
            'Sends a verification ping (`POST`, `{"type":"svc.webhook.verification","challenge":"…"}`) to the https URL through ' +
            'the safe outbound path (DNS and address checks, the connection pinned to the checked address, no redirect followed, ' +
            `AUDIT_WEBHOOK_TIMEOUT_MS, default 5000, at most 15000). Any 2xx saves the registration against the calling key; the ` +
            'challenge becomes the signing secret and is never returned. Every authenticated request takes a slot of the ' +
            'registration budget (AUDIT_WEBHOOK_RATE_LIMIT per AUDIT_WEBHOOK_RATE_WINDOW_SECONDS) before validation, and every ' +
            'answer after authentication carries the RateLimit-* headers.',
          security: [{ apiKey: [] }],
          body: RegisterBody,
          response: {
            201: withHeaders(RegistrationBody, RATE_LIMIT_HEADERS),
            400: withHeaders(
              Type.Object(FieldErrorsBody.properties, {
                description: 'The body breaks the contract (missing or unknown fields, a value outside its set, a URL that is not https). Nothing was sent.',
                examples: [
                  { errors: { url: 'must be an https URL; nothing is sent to other schemes' } },
                  { errors: { 'trigger.severity': 'must be one of medium, high, critical' } },
                  { errors: { 'trigger.on': 'must be one of every-audit, new-failures' } },
                ],
              }),
              RATE_LIMIT_HEADERS,
            ),
            401: withHeaders(InvalidKeyBody, RATE_LIMIT_POLICY_HEADER),
            409: withHeaders(LimitBody, RATE_LIMIT_HEADERS),
            422: withHeaders(VerificationFailedBody, RATE_LIMIT_HEADERS),
            429: withHeaders(RateLimitedBody, { ...RATE_LIMIT_HEADERS, ...RETRY_AFTER_HEADER }),
            500: InternalBody,
          },
        },
      },
      async (request, reply) => {
        const body = request.body as RegisterBody;
        const url = parseWebhookUrl(body.url);
        if (typeof url === 'string') return reply.code(400).send(fieldErrors({ url }));
        const apiKeyId = request.apiKey!.id;
        const { maxPerKey, timeoutMs } = deps.config;
        // Checked before the ping too, so a key at its maximum makes the service send nothing.
        if ((await countRegistrations(deps.db, apiKeyId)) >= maxPerKey) return reply.code(409).send({ error: 'webhook limit reached' });
        const verification = await verifyDestination(deps.fetcher, url, timeoutMs, request.log);
        if (!verification.ok) {
          request.log.info({ origin: url.origin, reason: verification.reason }, 'webhook verification failed');
          return reply.code(422).send({ error: 'webhook verification failed', reason: verification.reason });
        }
        const saved = await saveRegistration(deps.db, {
          apiKeyId,
          url: url.href,
          trigger: { ...body.trigger, on: body.trigger.on ?? 'every-audit' },
          challenge: verification.challenge,
          verifiedAt: verification.verifiedAt,
          maxPerKey,
        });
        if (saved === 'limit reached') return reply.code(409).send({ error: 'webhook limit reached' });
        request.log.info({ webhookId: saved.id, origin: url.origin }, 'webhook registered');
        return reply.code(201).send(registrationJson(saved));
      },
    );

    typed.get(
      '/api/v1/alerts/webhook',
      {
        onRequest: authenticate,
        schema: {
          summary: 'List the key’s webhook registrations',
          description: 'The calling key’s own registrations, oldest first, each with its latest delivery attempt. Takes no rate-limit slot.',
          security: [{ apiKey: [] }],
          response: {
            200: Type.Object(
              { items: Type.Array(RegistrationBody) },
              { description: 'Every registration of the key (at most AUDIT_MAX_WEBHOOKS_PER_KEY).', examples: [{ items: [{ ...EXAMPLE_REGISTRATION, latestAttempt: EXAMPLE_ATTEMPT }] }] },
            ),
            401: InvalidKeyBody,
          },
        },
      },
      async (request) => ({ items: (await listRegistrations(deps.db, request.apiKey!.id)).map(registrationJson) }),
    );

    typed.delete(
      '/api/v1/alerts/webhook/:id',
      {
        onRequest: authenticate,
        schema: {
          summary: 'Delete a webhook registration',
          description: 'Removes the registration with its pending deliveries and attempt records. Another key’s registration is a 404.',
          security: [{ apiKey: [] }],
          params: Type.Object({ id: Type.String({ description: 'The registration’s `id`.' }) }),
          response: {
            204: Type.Null({ description: 'Deleted.' }),
            401: InvalidKeyBody,
            404: NotFoundBody,
          },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const deleted = Value.Check(Uuid, id) && (await deleteRegistration(deps.db, request.apiKey!.id, id));
        if (!deleted) return reply.code(404).send({ error: 'not found' });
        return reply.code(204).send(null);
      },
    );

    typed.get(
      '/api/v1/alerts/webhook/:id/attempts',
      {
        onRequest: authenticate,
        preValidation: convertQuery(AttemptsQuery),
        schema: {
          summary: 'List a registration’s delivery attempts',
          description:
            'Every HTTP try of every delivery to this registration, newest first, keyset-paginated: pass `nextCursor` as ' +
            '`cursor` until it is null. Reasons carry no network detail. Takes no rate-limit slot.',
          security: [{ apiKey: [] }],
          params: Type.Object({ id: Type.String({ description: 'The registration’s `id`.' }) }),
          querystring: AttemptsQuery,
          response: {
            200: AttemptList,
            400: Type.Object(FieldErrorsBody.properties, {
              description: 'Invalid query parameters, keyed by parameter name.',
              examples: [{ errors: { cursor: 'is not a cursor this endpoint issued; pass nextCursor unchanged' } }],
            }),
            401: InvalidKeyBody,
            404: NotFoundBody,
          },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const { limit = 20, cursor } = request.query;
        const after = cursor === undefined ? undefined : decodeCursor(cursor);
        if (cursor !== undefined && after === undefined) {
          return reply.code(400).send(fieldErrors({ cursor: 'is not a cursor this endpoint issued; pass nextCursor unchanged' }));
        }
        const page = Value.Check(Uuid, id) ? await listAttempts(deps.db, request.apiKey!.id, id, { limit, after }) : undefined;
        if (!page) return reply.code(404).send({ error: 'not found' });
        return { items: page.attempts.map(attemptJson), nextCursor: page.next ? encodeCursor(page.next) : null };
      },
    );

    typed.post(
      '/api/v1/alerts/webhook/:id/attempts/:deliveryId/resend',
      {
        onRequest: [announcePolicy, authenticateAndTakeSlot],
        bodyLimit: 1024,
        schema: {
          summary: 'Resend a delivery',
          description:
            'Puts the delivery that the attempt `deliveryId` belongs to back in the outbox, due now, as Svix resends a ' +
            'message. The worker sends the same stored event as a new try: a new `deliveryId`, timestamp and signature, ' +
            'to the registration’s current URL with its current secret, appended to the same attempts list (`auditId` ' +
            'unchanged, `attemptNumber` counting on). Any attempt of the delivery names it. A `failed` or `delivered` ' +
            'delivery can be resent (receivers deduplicate on `audit.id`); a `pending` one (waiting for a retry or in ' +
            'flight) is a 409, so a delivery has at most one requeue at a time. The retry schedule is not restarted: ' +
            'the attempt counter carries on, so a delivery that used up its schedule gets exactly one try per resend, ' +
            'and one that stopped early (delivered, 410 Gone) has the rest of its schedule. Each request takes a slot of ' +
            'the registration budget (AUDIT_WEBHOOK_RATE_LIMIT per AUDIT_WEBHOOK_RATE_WINDOW_SECONDS), since it makes the ' +
            'service contact an address the client chose. No request body.',
          security: [{ apiKey: [] }],
          params: ResendParams,
          response: {
            202: withHeaders(ResentBody, RATE_LIMIT_HEADERS),
            400: withHeaders(
              Type.Object(FieldErrorsBody.properties, {
                description: 'An id that is not a UUID (keyed `id` or `deliveryId`), or a body that could not be read. Nothing was requeued.',
                examples: [{ errors: { deliveryId: UUID_MESSAGE } }],
              }),
              RATE_LIMIT_HEADERS,
            ),
            401: withHeaders(InvalidKeyBody, RATE_LIMIT_POLICY_HEADER),
            404: withHeaders(
              Type.Object(NotFoundBody.properties, {
                description: 'No such registration of the calling key (another key’s registration included), or no attempt with this `deliveryId` in it.',
                examples: [{ error: 'not found' }],
              }),
              RATE_LIMIT_HEADERS,
            ),
            409: withHeaders(PendingBody, RATE_LIMIT_HEADERS),
            429: withHeaders(RateLimitedBody, { ...RATE_LIMIT_HEADERS, ...RETRY_AFTER_HEADER }),
            500: InternalBody,
          },
        },
      },
      async (request, reply) => {
        const { id, deliveryId } = request.params;
        const invalid: Record<string, string> = {};
        if (!Value.Check(Uuid, id)) invalid.id = UUID_MESSAGE;
        if (!Value.Check(Uuid, deliveryId)) invalid.deliveryId = UUID_MESSAGE;
        if (Object.keys(invalid).length > 0) return reply.code(400).send(fieldErrors(invalid));
        const result = await resendDelivery(deps.db, { webhookId: id, attemptId: deliveryId, apiKeyId: request.apiKey!.id });
        if (result.outcome === 'not found') return reply.code(404).send({ error: 'not found' });
        if (result.outcome === 'pending') return reply.code(409).send({ error: 'delivery pending' });
        request.server.deliveryWorker?.notify();
        request.log.info({ webhookId: id, resentFrom: deliveryId, attemptNumber: result.attemptNumber }, 'webhook delivery requeued for resend');
        return reply.code(202).send({ state: 'pending', auditId: result.auditId, attemptNumber: result.attemptNumber });
      },
    );
  };
}
