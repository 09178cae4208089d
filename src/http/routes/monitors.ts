// Monitors: POST/GET /api/v1/monitors and GET/PATCH/DELETE /api/v1/monitors/{id}. A monitor asks
// for the same audit as POST /api/v1/audit, re-run on a schedule by the scheduler
// (src/monitors/scheduler.ts). POST is bounded like webhook registration: auth and a slot of its
// own budget before the body is read, then the per-key maximum; reads and changes take no slot.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { BRANCHES, WCAG_STANDARDS } from '../../audit/control.ts';
import { MONITOR_MAX_INTERVAL_MS, parseDuration, type MonitorConfig } from '../../config.ts';
import { decodeCursor, encodeCursor } from '../../db/keyset.ts';
import type { Database } from '../../db/schema.ts';
import { RUN_REASON_TEXTS } from '../../monitors/scheduler.ts';
import { changeMonitor, createMonitor, deleteMonitor, findMonitor, listMonitors, type Monitor, type MonitorChange } from '../../monitors/store.ts';
import { checkTargetUrl, type AddressPolicy } from '../../net/address-policy.ts';
import { requireApiKey } from '../api-key-auth.ts';
import { FieldErrorsBody, fieldErrors } from '../errors.ts';
import { RATE_LIMIT_HEADERS, RATE_LIMIT_POLICY_HEADER, RETRY_AFTER_HEADER, withHeaders } from '../openapi.ts';
import { convertQuery } from '../query.ts';
import type { RateLimiter } from '../rate-limit.ts';
import { RateLimitedBody, rateLimitHooks } from '../rate-limit-hooks.ts';

const MAX_LIMIT = 100;
const Uuid = Type.String({ format: 'uuid' });

/**
 * The first run falls at a random point within this much of the monitor's creation (or within one
 * interval, when that is shorter), and every later one an interval after the one before: monitors
 * created together run spread out, never all in the same second, and a new monitor's first result
 * comes within minutes, not a day later.
 */
export const FIRST_RUN_SPREAD_MS = 5 * 60_000;

const EVERY_DESCRIPTION =
  'How often the page is audited: a whole number and a unit (`ms`, `s`, `m`, `h`, `d`), as in AUDIT_WEBHOOK_RETRY_SCHEDULE, e.g. `15m`, `6h`, `1d`. ' +
  'At least AUDIT_MONITOR_MIN_INTERVAL (default `15m`), at most `31d`.';

const CreateBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'Absolute https URL of a public page, checked as POST /api/v1/audit checks it: loopback, private and internal hosts are a 400.',
    }),
    branch: Type.Optional(Type.Enum([...BRANCHES], { default: 'wcag', description: 'Audit lens. Default `wcag`.' })),
    standard: Type.Optional(Type.Enum([...WCAG_STANDARDS], { description: 'Only with branch `wcag` (default `WCAG21AA`); a 400 with any other branch.' })),
    includeWarnings: Type.Optional(Type.Boolean({ default: true, description: 'As for POST /api/v1/audit: false stores errors only.' })),
    every: Type.String({ minLength: 1, maxLength: 20, description: EVERY_DESCRIPTION }),
  },
  {
    additionalProperties: false,
    examples: [{ url: 'https://example.com/checkout', every: '6h' }, { url: 'https://example.com/', branch: 'privacy', every: '1d', includeWarnings: false }],
  },
);
type CreateBody = Static<typeof CreateBody>;

const ChangeBody = Type.Object(
  {
    every: Type.Optional(Type.String({ minLength: 1, maxLength: 20, description: `${EVERY_DESCRIPTION} Applies from the next run: the next run stays where it is when that is sooner than one new interval from now.` })),
    includeWarnings: Type.Optional(Type.Boolean()),
    paused: Type.Optional(Type.Boolean({ description: 'true: no run starts until it is resumed (a run in progress finishes). A monitor resumed after its next run has passed runs once, soon.' })),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ paused: true }, { every: '1d', includeWarnings: false }] },
);
type ChangeBody = Static<typeof ChangeBody>;

const LastRunBody = Type.Object(
  {
    startedAt: Type.String({ format: 'date-time' }),
    outcome: Type.Enum(['audited', 'unreachable', 'analysis-failed'], {
      description:
        '`audited`: an audit was stored (`auditId`; its failure events and tickets are those of any audit). `unreachable`: the page could not be fetched; ' +
        '`analysis-failed`: it was fetched but could not be analysed within the bounds (or the WCAG AI step failed). Neither stores an audit.',
    }),
    auditId: Type.Optional(Type.String({ format: 'uuid' })),
    reason: Type.Optional(Type.String({ description: `Why nothing was stored; one of: ${RUN_REASON_TEXTS.map((r) => `\`${r}\``).join(', ')}. Never network detail.` })),
  },
  { description: 'The latest finished run.' },
);

const EXAMPLE_MONITOR = {
  id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  url: 'https://example.com/checkout',
  branch: 'wcag',
  standard: 'WCAG21AA',
  includeWarnings: true,
  every: '6h',
  paused: false,
  createdAt: '2026-03-01T10:00:00.000Z',
  nextRunAt: '2026-03-01T16:02:11.000Z',
  lastRun: { startedAt: '2026-03-01T10:02:11.004Z', outcome: 'audited', auditId: '5d0c9a51-3b7e-4c2a-8f0e-6a1b2c3d4e5f' },
};

export const MonitorBody = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    url: Type.String(),
    branch: Type.Enum([...BRANCHES]),
    standard: Type.Optional(Type.Enum([...WCAG_STANDARDS])),
    includeWarnings: Type.Boolean(),
    every: Type.String(),
    paused: Type.Boolean(),
    createdAt: Type.String({ format: 'date-time' }),
    nextRunAt: Type.String({ format: 'date-time', description: 'When the next run falls due (a paused monitor keeps it; it may be past).' }),
    lastRun: Type.Union([LastRunBody, Type.Null()], { description: 'null until the first run has finished.' }),
  },
  { description: 'A monitor.', examples: [EXAMPLE_MONITOR] },
);

const ListQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: 20, description: `Page size, 1 to ${MAX_LIMIT}.` })),
    cursor: Type.Optional(Type.String({ maxLength: 200, description: 'The `nextCursor` of the previous page, unchanged.' })),
  },
  { additionalProperties: false },
);

const InvalidKeyBody = Type.Object({ error: Type.Literal('invalid api key') }, { description: 'X-API-Key missing, unknown or revoked.', examples: [{ error: 'invalid api key' }] });
const NotFoundBody = Type.Object(
  { error: Type.Literal('not found') },
  { description: 'Unknown id, an id that is not a UUID, or another key’s monitor.', examples: [{ error: 'not found' }] },
);
const LimitBody = Type.Object(
  { error: Type.Literal('monitor limit reached') },
  { description: 'The key already holds the maximum number of monitors (AUDIT_MONITOR_MAX_PER_KEY).', examples: [{ error: 'monitor limit reached' }] },
);
const BadRequest = (description: string, example: Record<string, string>) =>
  Type.Object(FieldErrorsBody.properties, { description, examples: [{ errors: example }] });

export function monitorJson(monitor: Monitor) {
  return {
    id: monitor.id,
    url: monitor.url,
    branch: monitor.branch,
    ...(monitor.standard ? { standard: monitor.standard } : {}),
    includeWarnings: monitor.includeWarnings,
    every: monitor.every,
    paused: monitor.paused,
    createdAt: monitor.createdAt.toISOString(),
    nextRunAt: monitor.nextRunAt.toISOString(),
    lastRun:
      monitor.lastRun === null
        ? null
        : {
            startedAt: monitor.lastRun.startedAt.toISOString(),
            outcome: monitor.lastRun.outcome,
            ...(monitor.lastRun.auditId ? { auditId: monitor.lastRun.auditId } : {}),
            ...(monitor.lastRun.reason ? { reason: monitor.lastRun.reason } : {}),
          },
  };
}

export interface MonitorRouteDeps {
  db: Kysely<Database>;
  config: MonitorConfig;
  /** The registration budget (AUDIT_MONITOR_RATE_LIMIT), separate from the audit route's. */
  rateLimiter: RateLimiter;
  addressPolicy: AddressPolicy;
  /** Wakes this process's scheduler: a new or resumed monitor may fall due before its next poll. */
  onScheduleChanged?: () => void;
  clock?: () => Date;
  /** In [0, 1): where in the first-run spread a new monitor's first run falls. */
  random?: () => number;
}

/** An interval in milliseconds, or the 400's message. */
function parseEvery(text: string, minIntervalMs: number, minText: string): number | string {
  const ms = parseDuration(text.trim());
  if (ms === undefined) return 'must be a whole number and a unit (ms, s, m, h, d), e.g. 15m, 6h, 1d';
  if (ms < minIntervalMs) return `must be at least ${minText}`;
  if (ms > MONITOR_MAX_INTERVAL_MS) return 'must be at most 31d';
  return ms;
}

/** The shortest interval as a reader would write it (`15m`, `1h`). */
function durationText(ms: number): string {
  for (const [unit, size] of [['d', 86_400_000], ['h', 3_600_000], ['m', 60_000], ['s', 1000]] as const) if (ms % size === 0) return `${ms / size}${unit}`;
  return `${ms}ms`;
}

export function monitorRoutes(deps: MonitorRouteDeps) {
  const authenticate = requireApiKey(deps.db);
  const { announcePolicy, authenticateAndTakeSlot } = rateLimitHooks(deps.rateLimiter);
  const clock = deps.clock ?? (() => new Date());
  const random = deps.random ?? Math.random;
  const { maxPerKey, minIntervalMs } = deps.config;
  const minText = durationText(minIntervalMs);

  return async function register(app: FastifyInstance) {
    const typed = app.withTypeProvider<TypeBoxTypeProvider>();

    typed.post(
      '/api/v1/monitors',
      {
        onRequest: [announcePolicy, authenticateAndTakeSlot],
        bodyLimit: 16 * 1024,
        schema: {
          summary: 'Monitor a page: audit it on a schedule',
          description:
            'Stores a monitor for the calling key: the audit POST /api/v1/audit would run, re-run every `every`. Each run is an audit like any other ' +
            '(stored with `trigger: "monitor"` and `monitorId`, with its failure events and tickets) and does not spend the key’s audit rate limit: ' +
            'a monitor’s bound is its interval and the number of monitors per key (AUDIT_MONITOR_MAX_PER_KEY). The first run falls at a random point ' +
            `within ${FIRST_RUN_SPREAD_MS / 60_000} minutes (or one interval, if shorter), each later one an interval after it; after downtime a ` +
            'monitor runs once and moves on. Every authenticated request takes a slot of the registration budget (AUDIT_MONITOR_RATE_LIMIT per ' +
            'AUDIT_MONITOR_RATE_WINDOW_SECONDS) before validation, and every answer after authentication carries the RateLimit-* headers.',
          security: [{ apiKey: [] }],
          body: CreateBody,
          response: {
            201: withHeaders(MonitorBody, RATE_LIMIT_HEADERS),
            400: withHeaders(
              BadRequest('The body breaks the contract (a URL that is not a public https URL, `every` shorter than the minimum, `standard` with a branch other than wcag).', {
                every: `must be at least ${minText}`,
              }),
              RATE_LIMIT_HEADERS,
            ),
            401: withHeaders(InvalidKeyBody, RATE_LIMIT_POLICY_HEADER),
            409: withHeaders(LimitBody, RATE_LIMIT_HEADERS),
            429: withHeaders(RateLimitedBody, { ...RATE_LIMIT_HEADERS, ...RETRY_AFTER_HEADER }),
          },
        },
      },
      async (request, reply) => {
        const body = request.body as CreateBody;
        const branch = body.branch ?? 'wcag';
        const errors: Record<string, string> = {};
        if (body.standard !== undefined && branch !== 'wcag') errors.standard = 'is only allowed with branch wcag';
        const target = checkTargetUrl(body.url, deps.addressPolicy);
        if (!target.ok) errors.url = target.message;
        const every = parseEvery(body.every, minIntervalMs, minText);
        if (typeof every === 'string') errors.every = every;
        if (!target.ok || typeof every === 'string' || Object.keys(errors).length > 0) return reply.code(400).send(fieldErrors(errors));
        const now = clock();
        const saved = await createMonitor(
          deps.db,
          {
            apiKeyId: request.apiKey!.id,
            url: target.url.href,
            branch,
            standard: branch === 'wcag' ? (body.standard ?? 'WCAG21AA') : undefined,
            includeWarnings: body.includeWarnings ?? true,
            every: durationText(every),
            everyMs: every,
            firstRunAt: new Date(now.getTime() + Math.floor(random() * Math.min(every, FIRST_RUN_SPREAD_MS))),
          },
          maxPerKey,
        );
        if (saved === 'limit reached') return reply.code(409).send({ error: 'monitor limit reached' });
        request.log.info({ monitorId: saved.id, origin: target.url.origin, every: saved.every }, 'monitor created');
        deps.onScheduleChanged?.();
        return reply.code(201).send(monitorJson(saved));
      },
    );

    typed.get(
      '/api/v1/monitors',
      {
        onRequest: authenticate,
        preValidation: convertQuery(ListQuery),
        schema: {
          summary: 'List the key’s monitors',
          description: 'The calling key’s monitors, newest first, keyset-paginated: pass `nextCursor` as `cursor` until it is null. Takes no rate-limit slot.',
          security: [{ apiKey: [] }],
          querystring: ListQuery,
          response: {
            200: Type.Object(
              {
                items: Type.Array(MonitorBody, { description: 'Newest first; ties on createdAt broken by id, descending.' }),
                nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next page; null on the last page.' }),
              },
              { description: 'One page of the key’s monitors.', examples: [{ items: [EXAMPLE_MONITOR], nextCursor: null }] },
            ),
            400: BadRequest('Invalid query parameters, keyed by parameter name.', { cursor: 'is not a cursor this endpoint issued; pass nextCursor unchanged' }),
            401: InvalidKeyBody,
          },
        },
      },
      async (request, reply) => {
        const { limit = 20, cursor } = request.query;
        const after = cursor === undefined ? undefined : decodeCursor(cursor);
        if (cursor !== undefined && after === undefined) {
          return reply.code(400).send(fieldErrors({ cursor: 'is not a cursor this endpoint issued; pass nextCursor unchanged' }));
        }
        const page = await listMonitors(deps.db, request.apiKey!.id, { limit, after });
        return { items: page.monitors.map(monitorJson), nextCursor: page.next ? encodeCursor(page.next) : null };
      },
    );

    const IdParams = Type.Object({ id: Type.String({ maxLength: 100, description: 'The monitor’s `id`.' }) });

    typed.get(
      '/api/v1/monitors/:id',
      {
        onRequest: authenticate,
        schema: {
          summary: 'Read a monitor',
          description: 'The monitor with its next run and its latest finished run. Its audits: GET /api/v1/audits?monitorId=…',
          security: [{ apiKey: [] }],
          params: IdParams,
          response: { 200: MonitorBody, 401: InvalidKeyBody, 404: NotFoundBody },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const monitor = Value.Check(Uuid, id) ? await findMonitor(deps.db, request.apiKey!.id, id) : undefined;
        if (!monitor) return reply.code(404).send({ error: 'not found' });
        return monitorJson(monitor);
      },
    );

    typed.patch(
      '/api/v1/monitors/:id',
      {
        onRequest: authenticate,
        bodyLimit: 4 * 1024,
        schema: {
          summary: 'Change a monitor’s interval, warnings or pause',
          description: 'Changes `every`, `includeWarnings` and `paused` (at least one). The URL, branch and standard of a monitor never change: create another. Takes no rate-limit slot.',
          security: [{ apiKey: [] }],
          params: IdParams,
          body: ChangeBody,
          response: {
            200: MonitorBody,
            400: BadRequest('The body breaks the contract (no field, an unknown field, `every` out of bounds).', { every: `must be at least ${minText}` }),
            401: InvalidKeyBody,
            404: NotFoundBody,
          },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const body = request.body as ChangeBody;
        const change: MonitorChange = {};
        if (body.every !== undefined) {
          const every = parseEvery(body.every, minIntervalMs, minText);
          if (typeof every === 'string') return reply.code(400).send(fieldErrors({ every }));
          change.every = { text: durationText(every), ms: every };
        }
        if (body.includeWarnings !== undefined) change.includeWarnings = body.includeWarnings;
        if (body.paused !== undefined) change.paused = body.paused;
        const monitor = Value.Check(Uuid, id) ? await changeMonitor(deps.db, request.apiKey!.id, id, change, clock()) : undefined;
        if (!monitor) return reply.code(404).send({ error: 'not found' });
        if (change.paused === false || change.every !== undefined) deps.onScheduleChanged?.();
        return monitorJson(monitor);
      },
    );

    typed.delete(
      '/api/v1/monitors/:id',
      {
        onRequest: authenticate,
        schema: {
          summary: 'Delete a monitor',
          description: 'No run starts after this (a run in progress finishes and stores its audit). Its audits stay, still naming it in `monitorId`.',
          security: [{ apiKey: [] }],
          params: IdParams,
          response: { 204: Type.Null({ description: 'Deleted.' }), 401: InvalidKeyBody, 404: NotFoundBody },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const deleted = Value.Check(Uuid, id) && (await deleteMonitor(deps.db, request.apiKey!.id, id));
        if (!deleted) return reply.code(404).send({ error: 'not found' });
        return reply.code(204).send(null);
      },
    );
  };
}
