// Composition root: builds the Fastify app from configuration and already-open dependencies.
// main.ts owns the process (listen, signals); tests build the app and call inject or listen.
import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { sql, type Kysely } from 'kysely';
import type { Config } from './config.ts';
import type { Database } from './db/schema.ts';
import { DatabaseUnavailableError } from './db/unavailable.ts';
import { clientErrorHandler, handleError, registerErrorHandlers } from './http/errors.ts';
import { registerJsonBodyParser } from './http/json-body.ts';
import { documentCommonAnswers, HealthBody } from './http/openapi.ts';
import { createRateLimiter, type RateLimiter } from './http/rate-limit.ts';
import { adminWebhookRoutes } from './http/routes/admin-webhooks.ts';
import { auditRoutes } from './http/routes/audit.ts';
import { auditsRoutes } from './http/routes/audits.ts';
import { changesRoutes } from './http/routes/changes.ts';
import { reportRoutes } from './http/routes/report.ts';
import { sessionRoutes } from './http/routes/session.ts';
import type { ReportRenderer } from './report/pdf.ts';
import { requireAdmin } from './auth/sessions.ts';
import { webhookRoutes } from './http/routes/webhooks.ts';
import { createAddressPolicy } from './net/address-policy.ts';
import { dashboardRoutes } from './dashboard/routes.ts';
import { createDeliveryWorker, type DeliveryWorker } from './alerts/delivery-worker.ts';
import { AnalysisPool } from './audit/analysis/pool.ts';
import { createChatClient } from './audit/wcag/ai-step/index.ts';
import { runAudit, type AuditDeps } from './audit/run-audit.ts';
import { monitorRoutes } from './http/routes/monitors.ts';
import { createMonitorScheduler, type MonitorScheduler } from './monitors/scheduler.ts';
import type { SafeFetcher } from './net/safe-fetch.ts';

export interface AppDeps {
  config: Config;
  db: Kysely<Database>;
  fetcher: SafeFetcher;
  /** Defaults to the database-backed limiter configured by `config.rateLimit`. */
  rateLimiter?: RateLimiter;
  /** Defaults to the database-backed limiter configured by `config.webhooks.rateLimit`. */
  webhookRateLimiter?: RateLimiter;
  /** A ready logger (tests capture lines); defaults to pino JSON on stdout at `config.logLevel`. */
  logger?: FastifyBaseLogger;
  /** The monitor scheduler's and routes' injectable parts; `enabled: false` runs no scheduler in this app (the routes stay). */
  monitors?: { enabled?: boolean; clock?: () => Date; random?: () => number; pollIntervalMs?: number };
  /** Defaults to the database-backed limiter configured by `config.monitors.rateLimit`. */
  monitorRateLimiter?: RateLimiter;
  /** The webhook delivery worker's injectable parts; `enabled: false` runs none in this app. */
  delivery?: { enabled?: boolean; clock?: () => Date; random?: () => number; pollIntervalMs?: number };
  /**
   * The report route's injectable parts: its renderer (tests make it fail) and its clock.
   */
  report?: { render?: ReportRenderer; clock?: () => Date };
  /** Tests only: the analysis threads' entry module (AnalysisPoolOptions.workerFile). */
  analysisWorkerFile?: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Sends the webhook outbox; runs inside the server process (started on ready, stopped on close). */
    deliveryWorker: DeliveryWorker | undefined;
    /** The page-analysis threads (their stats are what tests and operators can read). */
    analysisPool: AnalysisPool;
    /** Runs monitors' due slots; in the server process exactly when the delivery worker is (inline). */
    monitorScheduler: MonitorScheduler | undefined;
  }
}

/** Header values that are secrets: never written to a log line. */
export const REDACTED_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  'headers["x-api-key"]',
  'headers.cookie',
  'headers.authorization',
  'headers["set-cookie"]',
];

export function loggerOptions(level: string) {
  return { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
}

/** The readiness probe's own bound: a load balancer asks often and must not wait on a partition. */
const READY_TIMEOUT_MS = 1500;

/** `work`, or a DatabaseUnavailableError once `ms` have passed (the work itself is bounded too). */
async function withinMs<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DatabaseUnavailableError(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, db } = deps;
  const app = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: loggerOptions(config.logLevel) }),
    genReqId: () => randomUUID(),
    // request.ip is the login throttle's client address: only configured proxies may name it.
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    logController: new LogController({ requestIdLogLabel: 'requestId' }),
    bodyLimit: 64 * 1024,
    // Every request is bounded in time: headers within headersTimeoutMs, the whole request (body
    // included) within requestTimeoutMs, an idle keep-alive connection closed after keepAliveTimeoutMs.
    // Fastify's default requestTimeout is 0: a stalled upload could hold a connection forever.
    requestTimeout: config.http.requestTimeoutMs,
    keepAliveTimeout: config.http.keepAliveTimeoutMs,
    http: {
      headersTimeout: config.http.headersTimeoutMs,
      // Node checks the two timeouts above on this interval (30 s by default), so without it a
      // stalled request could outlive its bound by 30 s.
      connectionsCheckingInterval: 1000,
      // Node's own check answers with an empty 400; registerErrorHandlers answers in the spec's shape.
      requireHostHeader: false,
    },
    // What never reaches a route still gets the spec's error shape.
    clientErrorHandler,
    frameworkErrors: handleError,
    ajv: {
      // Unknown fields are a 400, not silently dropped; types are never coerced.
      customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: true, allErrors: true },
    },
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('X-Request-Id', request.id);
    // Answered before its body arrived (a 401 or 429 from onRequest, say): close the connection
    // rather than keep reading, and later time out, an upload nobody will use.
    if (!request.raw.complete) reply.header('Connection', 'close');
    // Every API answer is about one caller (a key's audits and webhooks, a session's CSRF token) or
    // refuses one: no cache, shared or private, may keep it. Unauthenticated answers too (a 401, a
    // 403): deciding per answer would make a forgotten case cacheable, and nothing is lost.
    if (request.url.startsWith('/api/')) reply.header('Cache-Control', 'no-store');
  });
  registerJsonBodyParser(app);
  // A client that gives up is routine, whatever stage its request reached: info, never error.
  app.addHook('onRequestAbort', async (request) => {
    request.log.info('client closed the connection before the answer');
  });
  registerErrorHandlers(app);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Audit service',
        version: '1.0.0',
        description:
          'Audits one public HTTPS page from its static HTML through one of three lenses (wcag, privacy, ai-governance). ' +
          'A pass means a visible signal was found; what static HTML cannot prove is an inconclusive warning. ' +
          'Every error body is `{"errors":{field:message}}` for input problems (400) or `{"error":message}` otherwise, ' +
          'including requests refused before routing (400 malformed request, 408 request timeout, 413, 417, 431). ' +
          'A request body is JSON under `Content-Type: application/json`; any other type is a 400 ' +
          '`{"errors":{"body":"Content-Type must be application/json"}}`, and a key `__proto__` (or `constructor` holding ' +
          '`prototype`) is a 400 naming it. Integer query parameters take decimal digits only (`1.5`, `1e2`, `+1`, `0x10` are a 400). ' +
          'Every /api/ answer carries `Cache-Control: no-store`. ' +
          `Headers must arrive within ${config.http.headersTimeoutMs} ms and a whole request within ${config.http.requestTimeoutMs} ms.`,
      },
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          adminSession: { type: 'apiKey', in: 'cookie', name: 'svc_session', description: 'An admin’s session, from POST /api/v1/session.' },
        },
      },
    },
    transformObject: documentCommonAnswers,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  app.get(
    '/healthz',
    { schema: { summary: 'The process is alive', response: { 200: HealthBody('ok', 'The process answers.') } } },
    async () => ({ status: 'ok' }),
  );
  const readiness = {
    summary: 'The database answers',
    response: {
      200: HealthBody('ready', 'The database answered a query.'),
      503: HealthBody('database unreachable', `The database did not answer within ${READY_TIMEOUT_MS} ms; the operator log says why.`),
    },
  };
  app.get('/readyz', { schema: readiness }, async (request, reply) => {
    try {
      await withinMs(READY_TIMEOUT_MS, sql`select 1`.execute(db));
      return { status: 'ready' };
    } catch (error) {
      request.log.warn({ err: error }, 'database not reachable');
      return reply.code(503).send({ status: 'database unreachable' });
    }
  });

  // Delivery runs in the server process: on the embedded database it must (one process per data
  // directory), and on PostgreSQL each server process is one more worker, claiming with SKIP LOCKED.
  const worker =
    deps.delivery?.enabled === false || config.webhooks.worker === 'off'
      ? undefined
      : createDeliveryWorker({
          db,
          fetcher: deps.fetcher,
          timeoutMs: config.webhooks.timeoutMs,
          retryScheduleMs: config.webhooks.retryScheduleMs,
          log: app.log.child({ component: 'delivery-worker' }),
          clock: deps.delivery?.clock,
          random: deps.delivery?.random,
          pollIntervalMs: deps.delivery?.pollIntervalMs ?? config.webhooks.pollIntervalMs,
          maxInFlightPerDestination: config.webhooks.maxInFlightPerDestination,
          maxInFlightPerKey: config.webhooks.maxInFlightPerKey,
          // One process on the embedded database: its claims take turns without the advisory lock.
          claimLock: config.databaseUrl !== undefined,
        });
  app.decorate('deliveryWorker', worker);
  if (worker) {
    app.addHook('onReady', async () => worker.start());
    // Stop claiming and let the tries in flight be recorded before the database is closed.
    app.addHook('onClose', async () => worker.stop());
  }

  // Page analysis off the event loop: threads start on the first audit (most test apps audit
  // nothing) and stop on close, once the requests in flight have ended (each within its budget).
  const analysisPool = new AnalysisPool({
    ...config.analysis,
    ...(deps.analysisWorkerFile ? { workerFile: deps.analysisWorkerFile } : {}),
    onError: (err) => app.log.error({ err, component: 'analysis-pool' }, 'analysis thread failed outside a task'),
  });
  app.decorate('analysisPool', analysisPool);
  app.addHook('onClose', async () => analysisPool.close());

  const auditDeps: AuditDeps = {
    db,
    fetcher: deps.fetcher,
    onEventsQueued: worker ? () => worker.notify() : undefined,
    crawlLimits: config.crawl,
    analysisPool,
    // The WCAG branch's AI step: one client for the process (the endpoint is operator configuration).
    ai: config.ai ? { client: createChatClient(config.ai), model: config.ai.model } : undefined,
  };
  const addressPolicy = createAddressPolicy(config.allowPrivateNetworks);
  await app.register(auditRoutes({ ...auditDeps, rateLimiter: deps.rateLimiter ?? createRateLimiter(db, config.rateLimit), addressPolicy }));

  // Monitors run where webhooks are delivered: here on the embedded database (and by default on
  // PostgreSQL), only in `worker` processes with AUDIT_WEBHOOK_WORKER=off.
  const schedulerLog = app.log.child({ component: 'monitor-scheduler' });
  const scheduler =
    deps.monitors?.enabled === false || config.webhooks.worker === 'off'
      ? undefined
      : createMonitorScheduler({
          db,
          // A run is an audit like any other: the request's flow, without a rate-limit slot or a client to lose.
          audit: (request) => runAudit(auditDeps, request, schedulerLog),
          log: schedulerLog,
          concurrency: config.monitors.concurrency,
          leaseMs: config.monitors.leaseMs,
          pollIntervalMs: deps.monitors?.pollIntervalMs ?? config.monitors.pollIntervalMs,
          clock: deps.monitors?.clock,
        });
  app.decorate('monitorScheduler', scheduler);
  if (scheduler) {
    app.addHook('onReady', async () => scheduler.start());
    // preClose runs before every onClose hook: the runs in flight finish and are recorded while
    // the analysis pool and the database are still open.
    app.addHook('preClose', async () => scheduler.stop());
  }
  await app.register(
    monitorRoutes({
      db,
      config: config.monitors,
      rateLimiter: deps.monitorRateLimiter ?? createRateLimiter(db, config.monitors.rateLimit, undefined, 'monitor_rate_limit_windows'),
      addressPolicy,
      onScheduleChanged: scheduler ? () => scheduler.notify() : undefined,
      clock: deps.monitors?.clock,
      random: deps.monitors?.random,
    }),
  );
  await app.register(auditsRoutes({ db }));
  await app.register(changesRoutes({ db }));
  await app.register(
    webhookRoutes({
      db,
      fetcher: deps.fetcher,
      config: config.webhooks,
      rateLimiter: deps.webhookRateLimiter ?? createRateLimiter(db, config.webhooks.rateLimit, undefined, 'webhook_rate_limit_windows'),
    }),
  );
  await app.register(sessionRoutes({ db, config }));
  await app.register(adminWebhookRoutes({ db, config }));
  await app.register(
    reportRoutes({
      db,
      requireAdmin: requireAdmin(db, config),
      ...(deps.report?.render ? { render: deps.report.render } : {}),
      ...(deps.report?.clock ? { clock: deps.report.clock } : {}),
    }),
  );
  // Pages for people: encapsulated, so its form parser, HTML error pages and headers stay under /dashboard.
  await app.register(dashboardRoutes({ db, config }), { prefix: '/dashboard' });
  return app;
}
