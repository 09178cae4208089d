// Local HTTP(S) servers for network tests. Everything listens on loopback, port 0.
//
//   const pki = await makeTestPki(['fixture.test']);
//   const fx = await startHttpsFixture({ '/': (req, res) => res.end('<!doctype html>hi') }, pki);
//   fetcher.request(new URL(fx.url('fixture.test', '/')), …)   // with AUDIT_RESOLVE-style fixture.test=127.0.0.1
//   assert.equal(fx.requests.length, 1);
//   await fx.close();
//
// Routes are matched on the path without query; unmatched paths answer 404. A single function
// instead of a routes object handles every request. Each request is recorded (method, path with
// query, headers, body) before the handler runs, so a test can count what reached the server even
// when the handler never answers. `connections` counts accepted TCP connections (before TLS).

import http from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { TestPki } from './tls.ts';

export interface RecordedRequest {
  method: string;
  /** Path plus query, as sent. */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body's bytes exactly as received (signatures are checked over these). */
  rawBody: Buffer;
}

/** May return anything (e.g. the `res.end()` chain); a returned promise that rejects answers 500. */
export type FixtureHandler = (req: IncomingMessage, res: ServerResponse, recorded: RecordedRequest) => unknown;
export type FixtureRoutes = Record<string, FixtureHandler>;

export interface Fixture {
  readonly host: string;
  readonly port: number;
  /** `https://<host>:<port><path>` (or http for the plain variant); `host` is the name the client uses. */
  url(host: string, path?: string): string;
  readonly requests: RecordedRequest[];
  /** TCP connections accepted so far. */
  readonly connections: number;
  close(): Promise<void>;
}

export interface FixtureOptions {
  /** Listen address; default 127.0.0.1 (use '::1' for IPv6 tests). */
  listen?: string;
}

function dispatcher(routes: FixtureRoutes | FixtureHandler, requests: RecordedRequest[]) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks);
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: rawBody.toString('utf8'),
        rawBody,
      };
      requests.push(recorded);
      const handler = typeof routes === 'function' ? routes : routes[new URL(recorded.path, 'http://x').pathname];
      if (!handler) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
        return;
      }
      Promise.resolve(handler(req, res, recorded)).catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500).end(String(err));
        else res.destroy();
      });
    });
  };
}

async function listen(server: http.Server | https.Server, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

async function wrap(server: http.Server | https.Server, scheme: 'http' | 'https', host: string, requests: RecordedRequest[]): Promise<Fixture> {
  let connections = 0;
  server.on('connection', () => connections++);
  // Keep a stuck handler from holding a test open past close().
  server.headersTimeout = 0;
  server.requestTimeout = 0;
  const port = await listen(server, host);
  return {
    host,
    port,
    url: (name, path = '/') => `${scheme}://${name.includes(':') ? `[${name}]` : name}:${port}${path}`,
    requests,
    get connections() {
      return connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export function startHttpsFixture(routes: FixtureRoutes | FixtureHandler, pki: TestPki, options: FixtureOptions = {}): Promise<Fixture> {
  const requests: RecordedRequest[] = [];
  const server = https.createServer({ key: pki.keyPem, cert: pki.certPem }, dispatcher(routes, requests));
  return wrap(server, 'https', options.listen ?? '127.0.0.1', requests);
}

/** Plain HTTP: for downgrade tests (a redirect to http:// must never reach it). */
export function startHttpFixture(routes: FixtureRoutes | FixtureHandler, options: FixtureOptions = {}): Promise<Fixture> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer(dispatcher(routes, requests));
  return wrap(server, 'http', options.listen ?? '127.0.0.1', requests);
}

export interface ConnectionCounter {
  readonly host: string;
  readonly port: number;
  readonly connections: number;
  close(): Promise<void>;
}

/**
 * A bare TCP listener that counts and immediately drops connections: the tripwire for "no socket
 * ever reached this address". Pass `port` to share a port number with another fixture on a
 * different loopback address (e.g. 127.0.0.2).
 */
export async function startConnectionCounter(host = '127.0.0.1', port = 0): Promise<ConnectionCounter> {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    host,
    port: (server.address() as AddressInfo).port,
    get connections() {
      return connections;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
