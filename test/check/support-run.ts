// The check client's run against the real service: the app listening on 127.0.0.1, fixture pages
// over real HTTPS, and a rate limiter on a clock the test moves (an injected `sleep` advances it,
// so a run waits out a 429 without waiting for real). Also fake stderr streams and servers that
// answer badly (never, or not at all).
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { createApiKey } from '../../src/auth/api-keys.ts';
import { createRateLimiter } from '../../src/http/rate-limit.ts';
import type { RunOptions } from '../../packages/check/src/model.ts';
import type { FixtureRoutes } from '../support/https-fixture.ts';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';
import { startTestService, type TestService } from '../support/service.ts';

export interface CheckService {
  service: TestService;
  database: TestDatabase;
  /** `http://127.0.0.1:<port>`: the service as the client reaches it. */
  base: string;
  /** A key on the default budget (1000 a minute: no test meets it). */
  apiKey: string;
  /** A fresh key with its own budget per minute. */
  keyWithBudget(limit: number): Promise<string>;
  /** The rate limiter's clock, in ms; mid-window at start (45 s left). */
  readonly clock: number;
  /** An injectable sleep that moves the limiter's clock instead of waiting; each wait is recorded. */
  sleep(ms: number): Promise<void>;
  readonly sleeps: number[];
  /** True while an injected sleep is in progress (after its turn of the event loop). */
  readonly sleeping: boolean;
  pageUrl(path: string): string;
  close(): Promise<void>;
}

export async function startCheckService(routes: FixtureRoutes): Promise<CheckService> {
  const database = await openTestDatabase();
  let clock = Date.parse('2026-03-01T10:00:15Z');
  let sleeping = false;
  const sleeps: number[] = [];
  const service = await startTestService({
    database,
    routes,
    rateLimiter: createRateLimiter(database.db, { limit: 1000, windowSeconds: 60 }, () => new Date(clock)),
  });
  const base = await service.app.listen({ host: '127.0.0.1', port: 0 });
  return {
    service,
    database,
    base,
    apiKey: service.apiKey,
    keyWithBudget: async (limit) => (await createApiKey(database.db, `budget ${limit}`, limit)).rawKey,
    get clock() {
      return clock;
    },
    async sleep(ms) {
      sleeps.push(ms);
      sleeping = true;
      // Give every other worker several turns: a worker that ignored the gate would send now.
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setTimeout(resolve, 20));
      clock += ms;
      sleeping = false;
    },
    sleeps,
    get sleeping() {
      return sleeping;
    },
    pageUrl: (path) => service.pageUrl(path),
    async close() {
      await service.close();
      await database.close();
    },
  };
}

export function page(body: string, title = 'A page about fish'): string {
  return `<!doctype html><html lang="en"><head><title>${title}</title></head><body><main><h1>Fish</h1>${body}</main></body></html>`;
}

/** A stderr as the run sees it: what was written, chunk by chunk. */
export function captureStream(isTTY: boolean, columns = 100) {
  const chunks: string[] = [];
  const stream = {
    isTTY,
    columns,
    write(chunk: string | Uint8Array) {
      chunks.push(String(chunk));
      return true;
    },
  };
  return { stream: stream as unknown as NodeJS.WritableStream & { isTTY?: boolean; columns?: number }, chunks, text: () => chunks.join('') };
}

export function runOptions(check: CheckService, overrides: Partial<RunOptions> = {}): RunOptions {
  return {
    server: check.base,
    apiKey: check.apiKey,
    urls: [],
    branches: ['wcag'],
    includeWarnings: true,
    concurrency: 2,
    failOn: 'error',
    ...overrides,
  };
}

/** A TCP server that accepts and never answers; `halfAnswer` sends headers and part of a body, then stalls. */
export async function startSilentServer(halfAnswer = false): Promise<{ url: string; connections: () => number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('error', () => {});
    if (halfAnswer) {
      socket.once('data', () => socket.write('HTTP/1.1 201 Created\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"id":'));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on: one a server had a moment ago. */
export async function closedPort(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** A fetch that answers from a script for the first calls and passes the rest to the real one. */
export function scriptedFetch(script: (() => Response)[]): { fetch: typeof fetch; calls: () => number } {
  let calls = 0;
  return {
    fetch: (input, init) => {
      const step = script[calls++];
      return step === undefined ? fetch(input, init) : Promise.resolve(step());
    },
    calls: () => calls,
  };
}

export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}
