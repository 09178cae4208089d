// Requests a well-behaved client never sends, written byte for byte to a listening app: each gets
// a 4xx in the spec's body shape (never Fastify's or Node's own), and no request holds a
// connection longer than its timeout.
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { openTestDatabase, type TestDatabase } from '../support/db.ts';
import { startTestService, type TestService } from '../support/service.ts';

// Small bounds so the timeout tests run quickly; Node checks them once a second.
const TIMEOUT_MS = 1000;
const CHECK_INTERVAL_MS = 1000;
const MARGIN_MS = 2000;
const GIVE_UP_MS = 10_000;

let database: TestDatabase;
let service: TestService;
let port: number;

before(async () => {
  database = await openTestDatabase();
  service = await startTestService({
    database,
    routes: {},
    env: {
      AUDIT_RATE_LIMIT: '1000',
      AUDIT_HEADERS_TIMEOUT_MS: String(TIMEOUT_MS),
      AUDIT_REQUEST_TIMEOUT_MS: String(TIMEOUT_MS),
      AUDIT_KEEP_ALIVE_TIMEOUT_MS: String(TIMEOUT_MS),
    },
  });
  await service.app.listen({ host: '127.0.0.1', port: 0 });
  port = (service.app.server.address() as net.AddressInfo).port;
});

after(async () => {
  await service?.close();
  await database?.close();
});

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The first complete response in `raw` (bodies are ASCII and sized by Content-Length), if any. */
function parseResponse(raw: string): RawResponse | undefined {
  const headEnd = raw.indexOf('\r\n\r\n');
  if (headEnd < 0) return undefined;
  const [statusLine = '', ...lines] = raw.slice(0, headEnd).split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).trim().toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  const length = Number(headers['content-length']);
  const body = raw.slice(headEnd + 4, headEnd + 4 + length);
  if (body.length !== length) return undefined; // not all here yet, or no Content-Length
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

interface Exchange {
  raw: string;
  response: RawResponse | undefined;
  /** The server closed the connection (rather than the test giving up after GIVE_UP_MS). */
  closedByServer: boolean;
  elapsedMs: number;
}

/**
 * Writes `parts` on a fresh connection, `gapMs` apart, and reads until the first complete response
 * or, with `untilClose`, until the server closes the connection.
 */
function exchange(parts: string[], { gapMs = 0, untilClose = false } = {}): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const started = performance.now();
    let raw = '';
    let done = false;
    const finish = (closedByServer: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(giveUp);
      clearInterval(drip);
      socket.destroy();
      resolve({ raw, response: parseResponse(raw), closedByServer, elapsedMs: performance.now() - started });
    };
    const giveUp = setTimeout(() => finish(false), GIVE_UP_MS);
    socket.on('error', () => {}); // a refused connection may be reset; what was read still counts
    socket.on('data', (chunk) => {
      raw += chunk.toString('latin1');
      if (!untilClose && parseResponse(raw)) finish(false);
    });
    socket.on('close', () => finish(true));
    const queue = [...parts];
    socket.write(queue.shift()!);
    const drip = setInterval(() => {
      if (queue.length === 0) clearInterval(drip);
      else if (socket.writable) socket.write(queue.shift()!);
    }, gapMs);
  });
}

const audit = (headers: string, body = '') =>
  `POST /api/v1/audit HTTP/1.1\r\nHost: audit.test\r\n${headers}Content-Length: ${body.length}\r\n\r\n${body}`;
const withKey = () => `X-API-Key: ${service.apiKey}\r\nContent-Type: application/json\r\n`;

// [what, raw request (a function: the API key exists only once the service runs), status, exact body]
const TRIGGERS: [string, () => string, number, unknown][] = [
  ['NUL in a header value', () => 'GET /healthz HTTP/1.1\r\nHost: a.test\r\nX-Note: a\0b\r\n\r\n', 400, { error: 'malformed request' }],
  [
    'Content-Length and Transfer-Encoding together',
    () => 'POST /api/v1/audit HTTP/1.1\r\nHost: a.test\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    400,
    { error: 'malformed request' },
  ],
  [
    'two different Content-Length values',
    () => 'POST /api/v1/audit HTTP/1.1\r\nHost: a.test\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
    400,
    { error: 'malformed request' },
  ],
  ['obs-fold header continuation', () => 'GET /healthz HTTP/1.1\r\nHost: a.test\r\nX-Note: a\r\n  b\r\n\r\n', 400, { error: 'malformed request' }],
  ['unknown method', () => 'BREW /healthz HTTP/1.1\r\nHost: a.test\r\n\r\n', 400, { error: 'unsupported method' }],
  ['unknown HTTP version', () => 'GET /healthz HTTP/9.9\r\nHost: a.test\r\n\r\n', 400, { error: 'malformed request' }],
  ['request target not a path', () => 'GET healthz HTTP/1.1\r\nHost: a.test\r\n\r\n', 400, { error: 'malformed request' }],
  ['bad percent-encoding in the path', () => 'POST /api/v1/audit% HTTP/1.1\r\nHost: a.test\r\nContent-Length: 0\r\n\r\n', 400, { error: 'malformed url' }],
  ['missing Host header', () => 'GET /healthz HTTP/1.1\r\n\r\n', 400, { errors: { host: 'header is required' } }],
  ['missing Host header on the audit route', () => 'POST /api/v1/audit HTTP/1.1\r\nContent-Length: 0\r\n\r\n', 400, { errors: { host: 'header is required' } }],
  [
    'headers larger than 16 KiB',
    () => `GET /healthz HTTP/1.1\r\nHost: a.test\r\nX-Big: ${'a'.repeat(17 * 1024)}\r\n\r\n`,
    431,
    { error: 'request header fields too large' },
  ],
  [
    'chunk extensions larger than 16 KiB',
    () => `POST /api/v1/audit HTTP/1.1\r\nHost: a.test\r\nTransfer-Encoding: chunked\r\n\r\n1;${'a'.repeat(17 * 1024)}\r\n`,
    413,
    { error: 'chunk extensions too large' },
  ],
  ['an Expect other than 100-continue', () => 'GET /healthz HTTP/1.1\r\nHost: a.test\r\nExpect: tea\r\n\r\n', 417, { error: 'expectation not supported' }],
  ['unknown path', () => 'GET /api/v1/nothing HTTP/1.1\r\nHost: a.test\r\n\r\n', 404, { error: 'not found' }],
  ['a method the route does not have', () => 'GET /api/v1/audit HTTP/1.1\r\nHost: a.test\r\n\r\n', 404, { error: 'not found' }],
  ['audit without a key', () => audit('Content-Type: application/json\r\n', '{}'), 401, { error: 'invalid api key' }],
  [
    'audit body over the 16 KiB limit',
    () => audit(withKey(), JSON.stringify({ url: `https://a.test/${'a'.repeat(17 * 1024)}` })),
    400,
    { errors: { body: 'is too large' } },
  ],
  ['audit body not JSON', () => audit(withKey(), '{"url":'), 400, { errors: { body: 'is not valid JSON' } }],
  [
    'audit body sent as application/octet-stream',
    () => audit(`X-API-Key: ${service.apiKey}\r\nContent-Type: application/octet-stream\r\n`, '{}'),
    400,
    { errors: { body: 'Content-Type must be application/json' } },
  ],
];

describe('every refused request gets the spec’s body shape', () => {
  for (const [what, request, status, body] of TRIGGERS) {
    test(`${what}: ${status}`, async () => {
      const { response, raw } = await exchange([request()]);
      assert.ok(response, `no complete response: ${JSON.stringify(raw.slice(0, 300))}`);
      assert.equal(response.status, status, raw.slice(0, 300));
      assert.match(response.headers['content-type'] ?? '', /^application\/json/);
      assert.deepEqual(JSON.parse(response.body), body);
    });
  }

  test('none of them logged an error', () => {
    assert.deepEqual(service.logs.filter((line) => (line.level as number) >= 50), []);
  });
});

const BOUND_MS = TIMEOUT_MS + CHECK_INTERVAL_MS + MARGIN_MS;
const stalledUpload = () => audit(withKey()).replace('Content-Length: 0', 'Content-Length: 500') + '{"url":';

// [what, parts written, gap between parts, the status of the only response]
const STALLS: [string, () => string[], number, number][] = [
  ['headers that never end', () => ['POST /api/v1/audit HTTP/1.1\r\nHost: a.test\r\n'], 0, 408],
  ['a body that stops half-way (Content-Length 500, 7 bytes sent)', () => [stalledUpload()], 0, 408],
  // Bytes keep arriving, so only a bound on the whole request (not on idleness) can end it.
  ['a body dripping one byte every 200 ms', () => [stalledUpload(), ...Array<string>(100).fill(' ')], 200, 408],
  ['a key-less upload, answered 401 before its body arrives', () => [audit('Content-Type: application/json\r\n').replace('Content-Length: 0', 'Content-Length: 500')], 0, 401],
  ['an idle keep-alive connection after a complete request', () => ['GET /healthz HTTP/1.1\r\nHost: a.test\r\n\r\n'], 0, 200],
];

describe('every connection ends within its timeout', () => {
  for (const [what, parts, gapMs, status] of STALLS) {
    test(what, async () => {
      const result = await exchange(parts(), { gapMs, untilClose: true });
      assert.ok(result.closedByServer, `still open after ${GIVE_UP_MS} ms`);
      assert.ok(result.elapsedMs < BOUND_MS, `closed after ${Math.round(result.elapsedMs)} ms, bound ${BOUND_MS} ms`);
      assert.ok(result.response, `no complete response: ${JSON.stringify(result.raw.slice(0, 300))}`);
      assert.equal(result.response.status, status);
      if (status === 408) assert.deepEqual(JSON.parse(result.response.body), { error: 'request timeout' });
      // Exactly one response: nothing (a late 408, say) follows the first.
      const first = result.raw.indexOf('HTTP/1.1');
      assert.equal(result.raw.indexOf('HTTP/1.1', first + 1), -1, result.raw);
    });
  }

  test('a client that aborts its upload is logged at info, not as an error', async () => {
    const before = service.logs.length;
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.write(stalledUpload());
    // Abort once the app has the request: its incoming-request line marks that.
    await waitFor(() => service.logs.slice(before).some((line) => line.msg === 'incoming request'));
    socket.destroy();
    // Whether the abort found the request in its hooks or reading its body (that depends on how
    // fast the database answered the key lookup), it is logged once at info and never as an error.
    const aborted = (line: Record<string, unknown>) => line.msg === 'client closed the connection before the answer';
    await waitFor(() => service.logs.slice(before).some(aborted));
    const lines = service.logs.slice(before);
    assert.equal(lines.find(aborted)?.level, 30);
    assert.deepEqual(lines.filter((line) => line.code === 'ECONNRESET' && line.level !== 30), []);
    assert.deepEqual(lines.filter((line) => (line.level as number) >= 50), []);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + GIVE_UP_MS;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
