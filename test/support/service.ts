// The whole service as a test meets it: the real app, a real test database, the real safe fetcher
// and a local HTTPS fixture server reached through static resolve and the private-network allow-list.
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp, loggerOptions, type AppDeps } from '../../src/app.ts';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import type { DatabaseHandle } from '../../src/db/connect.ts';
import type { RateLimiter } from '../../src/http/rate-limit.ts';
import { createAddressPolicy } from '../../src/net/address-policy.ts';
import { createSafeFetcher, type Resolver, type SafeFetcher } from '../../src/net/safe-fetch.ts';
import { startHttpsFixture, type Fixture, type FixtureRoutes } from './https-fixture.ts';
import { makeTestPki } from './tls.ts';

export const FIXTURE_HOST = 'site.test';

export interface TestService {
  app: FastifyInstance;
  config: Config;
  fixture: Fixture;
  fetcher: SafeFetcher;
  /** A fresh active API key. */
  apiKey: string;
  apiKeyId: string;
  /** Every log line the app wrote, parsed. */
  logs: Record<string, unknown>[];
  rawLogs: string[];
  pageUrl(path: string): string;
  close(): Promise<void>;
}

export interface TestServiceOptions {
  database: DatabaseHandle;
  routes: FixtureRoutes;
  env?: Record<string, string>;
  rateLimiter?: RateLimiter;
  webhookRateLimiter?: RateLimiter;
  /** The delivery worker's clock, random draw and polling; `enabled: false` runs none. */
  delivery?: AppDeps['delivery'];
  /** The monitor scheduler's and routes' clock, random draw and polling; `enabled: false` runs no scheduler. */
  monitors?: AppDeps['monitors'];
  /** Reuse a running fixture (for a second app instance). */
  fixture?: Fixture;
  /** Name resolution for names outside AUDIT_RESOLVE; default the system's. */
  resolver?: Resolver;
  /** The analysis threads' entry module (test/support/slow-page.ts has one whose slow page never ends). */
  analysisWorkerFile?: string;
  /** The report route's renderer, clock and admin guard. */
  report?: AppDeps['report'];
}

export async function startTestService(options: TestServiceOptions): Promise<TestService> {
  const pki = await makeTestPki([FIXTURE_HOST, 'other.test']);
  const fixture = options.fixture ?? (await startHttpsFixture(options.routes, pki));
  const config = loadConfig({
    AUDIT_RESOLVE: `${FIXTURE_HOST}=127.0.0.1,other.test=127.0.0.1`,
    AUDIT_ALLOW_PRIVATE_NETWORKS: '127.0.0.0/8',
    // Loopback on purpose: the fixtures listen on 127.0.0.1.
    AUDIT_ALLOW_PRIVATE_NETWORKS_UNSAFE: 'true',
    AUDIT_CRAWL_TIMEOUT_MS: '2000',
    LOG_LEVEL: 'info',
    ...options.env,
  });
  const fetcher = createSafeFetcher({
    policy: createAddressPolicy(config.allowPrivateNetworks),
    staticResolve: config.staticResolve,
    ca: [pki.caPem],
    ...(options.resolver ? { resolver: options.resolver } : {}),
  });
  const rawLogs: string[] = [];
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        rawLogs.push(line);
        logs.push(JSON.parse(line));
      }
      done();
    },
  });
  const app = await buildApp({
    config,
    db: options.database.db,
    fetcher,
    rateLimiter: options.rateLimiter,
    webhookRateLimiter: options.webhookRateLimiter,
    ...(options.delivery ? { delivery: options.delivery } : {}),
    ...(options.monitors ? { monitors: options.monitors } : {}),
    ...(options.report ? { report: options.report } : {}),
    ...(options.analysisWorkerFile ? { analysisWorkerFile: options.analysisWorkerFile } : {}),
    logger: pino(loggerOptions(config.logLevel), sink),
  });
  const observed = observeStatuses(app);
  const { id, rawKey } = await createApiKey(options.database.db, 'test');
  return {
    app,
    config,
    fixture,
    fetcher,
    apiKey: rawKey,
    apiKeyId: id,
    logs,
    rawLogs,
    pageUrl: (path) => fixture.url(FIXTURE_HOST, path),
    async close() {
      await app.close();
      await fetcher.close();
      if (!options.fixture) await fixture.close();
      checkStatusesDocumented(app, observed);
    },
  };
}

/** Every (method, route, status) the app answered, for routes in the OpenAPI description. */
function observeStatuses(app: FastifyInstance): Set<string> {
  const observed = new Set<string>();
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url;
    if (route !== undefined && request.routeOptions.schema?.hide !== true && !route.startsWith('/docs')) {
      observed.add(`${request.method} ${route.replace(/:(\w+)/g, '{$1}')} ${reply.statusCode}`);
    }
  });
  return observed;
}

/**
 * Every status a test saw a route answer is documented for that route, so the OpenAPI
 * description cannot fall behind what clients meet. Checked when each test file closes its
 * service. A gap fails the file through its exit code rather than a throw, because a throw here
 * would skip the file's remaining clean-up (its database) and leave the process hanging.
 */
function checkStatusesDocumented(app: FastifyInstance, observed: Set<string>): void {
  const paths = (app.swagger() as { paths?: Record<string, Record<string, { responses?: Record<string, unknown> }>> }).paths ?? {};
  const undocumented = [...observed].filter((entry) => {
    const [method, route, status] = entry.split(' ') as [string, string, string];
    return paths[route]?.[method.toLowerCase()]?.responses?.[status] === undefined;
  });
  if (undocumented.length === 0) return;
  process.stderr.write(`statuses answered but missing from the OpenAPI description: ${undocumented.join(', ')}\n`);
  process.exitCode = 1;
}
