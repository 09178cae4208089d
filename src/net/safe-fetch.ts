// The one way this service talks to the outside world (page crawl, privacy-policy follow, webhook
// ping and delivery). Every request, and every redirect hop, goes through the same sequence:
//   check the parsed URL → resolve once → judge every address → pin → dial only the pinned addresses.
// The pinning closes the DNS-rebinding gap: undici/net never resolve the name themselves, they ask
// our `connect.lookup` hook, which only answers from the set we validated for this request.

import { isUtf8 } from 'node:buffer';
import dns from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { Agent } from 'undici';
import type { Dispatcher } from 'undici';
import { checkParsedUrl, ipLiteralOf, parseIp } from './address-policy.ts';
import type { AddressPolicy } from './address-policy.ts';

export type OutboundReason =
  | 'bad-url' // not https, userinfo, too long, invalid redirect Location
  | 'blocked-address' // host name or (resolved) address refused by policy
  | 'no-such-host' // the name does not exist or has no A/AAAA records
  | 'dns' // resolution failed otherwise (temporary failure, server error, no answer before the deadline)
  | 'connect' // refused / unreachable
  | 'tls' // handshake or certificate failure
  | 'timeout' // connect, headers or total deadline exceeded once the name had resolved
  | 'too-large' // body over the cap (counted after decompression)
  | 'bad-encoding' // unsupported or corrupt Content-Encoding
  | 'redirect' // 3xx when redirects are not allowed, or a redirect without usable Location
  | 'too-many-redirects'
  | 'downgrade' // https → http redirect
  | 'http-status' // 4xx/5xx (when failOnHttpError)
  | 'network' // connection reset, malformed HTTP, other transport failure
  | 'aborted' // caller's signal
  | 'not-html' // raised by the crawl, not by the fetcher
  | 'invalid-request'; // our own request was malformed (e.g. header value with CR/LF)

/**
 * The single error type of outbound work. `message` and `detail` name the origin and the cause but
 * never request headers or bodies (webhook secrets) nor paths and queries (which may carry tokens).
 * They do carry network detail (resolved addresses, ranges, socket and TLS error codes): for the
 * operator's log only, never for a response, finding or event.
 */
export class OutboundError extends Error {
  readonly reason: OutboundReason;
  readonly detail: string;
  readonly status: number | undefined;
  /** Redirects followed before this failure (0: the requested URL itself failed); set by `request`. */
  redirects = 0;

  constructor(reason: OutboundReason, detail: string, options?: { status?: number; cause?: unknown }) {
    super(`${reason}: ${detail}`, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'OutboundError';
    this.reason = reason;
    this.detail = detail;
    this.status = options?.status;
  }
}

export type Resolver = (host: string) => Promise<string[]>;

export interface SafeFetcherConfig {
  policy: AddressPolicy;
  /** AUDIT_RESOLVE mappings (host without trailing dot, lower case); consulted before DNS. */
  staticResolve?: ReadonlyMap<string, readonly string[]>;
  /** Trust exactly these CAs instead of Node's store (tests; production uses NODE_EXTRA_CA_CERTS). */
  ca?: string[];
  /** Injectable name resolution (tests: mixed answers, rebinding). Default: {@link systemResolver}. */
  resolver?: Resolver;
  /**
   * TCP+TLS connect deadline. Per fetcher, not per request, because connections are pooled and a
   * socket may be opened for one request and reused by the next. Default 5000 ms.
   */
  connectTimeoutMs?: number;
}

export interface SafeRequest {
  method?: 'GET' | 'POST';
  /** Host, Connection, Content-Length, Transfer-Encoding and Accept-Encoding are ours and ignored. */
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** 0 = any redirect status is a failure ('redirect'), never followed. */
  maxRedirects: number;
  /** Deadline for everything: DNS, every hop, the whole body. */
  timeoutMs: number;
  /** Deadline for the response headers of each hop (from dispatch). Default: timeoutMs. */
  headersTimeoutMs?: number;
  /** Body cap in bytes, counted after decompression. */
  maxBytes: number;
  /** Throw 'http-status' on a final 4xx/5xx (default true). Webhook delivery sets false to record it. */
  failOnHttpError?: boolean;
  /**
   * 'fail' (default): a body over maxBytes throws 'too-large'. 'truncate': the first maxBytes are
   * returned and the rest is dropped unread (webhook delivery keeps ≤ 1 KiB of a receiver's answer,
   * whose size must not decide the attempt's outcome).
   */
  overflow?: 'fail' | 'truncate';
  signal?: AbortSignal;
}

export interface SafeHop {
  url: string;
  status: number;
  setCookies: string[];
}

export interface SafeResponse {
  finalUrl: URL;
  status: number;
  /** Lower-cased names; repeated headers (e.g. set-cookie) as arrays, exactly as received. */
  headers: Record<string, string | string[]>;
  /** Decoded (decompressed) body. */
  body: Buffer;
  /** The redirect responses that led to the final one, in order (the final response is not a hop). */
  hops: SafeHop[];
}

export interface SafeFetcher {
  request(url: URL, req: SafeRequest): Promise<SafeResponse>;
  /** Graceful: lets in-flight requests finish, then closes pooled sockets. */
  close(): Promise<void>;
}

/**
 * Default resolver: getaddrinfo via dns.lookup, all families, in the system's order. Chosen over
 * resolve4+resolve6 because it answers exactly like every other program on the host (/etc/hosts,
 * nsswitch, search domains): an operator's container-level host entries work, and what we validate
 * is what the OS would have dialled. Its lack of cancellation is covered by the total deadline.
 */
export const systemResolver: Resolver = async (host) => {
  const answers = await dns.promises.lookup(host, { all: true, order: 'verbatim' });
  return answers.map((a) => a.address);
};

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const OWNED_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'accept-encoding', 'keep-alive', 'upgrade', 'te']);
const CROSS_ORIGIN_STRIPPED = new Set(['authorization', 'proxy-authorization', 'cookie']);
const ACCEPT_ENCODING = 'gzip, deflate, br';
// A compressed stream is normally smaller than its output, but incompressible data grows a little,
// and a stream of empty deflate blocks never grows the output at all. Capping the wire bytes at
// the body cap plus this slack bounds both without rejecting honest near-cap pages.
const WIRE_SLACK_BYTES = 64 * 1024;

const stripDot = (host: string): string => (host.endsWith('.') ? host.slice(0, -1) : host);

export interface PinnedAddress {
  address: string;
  family: 4 | 6;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

export interface PinRegistry {
  /** Makes `addresses` dialable for `host` until the returned release function is called. */
  pin(host: string, addresses: readonly PinnedAddress[]): () => void;
  /** A `net.connect` lookup that answers only from pinned addresses and never touches DNS. */
  lookup(hostname: string, options: LookupOptions, callback: LookupCallback): void;
}

/**
 * host → the validated answer sets of the requests currently in flight for it. Any of them is safe
 * to dial (one fetcher, one policy); the newest is used. An unpinned host fails closed.
 */
export function createPinRegistry(): PinRegistry {
  const pins = new Map<string, Set<readonly PinnedAddress[]>>();
  return {
    pin(host, addresses) {
      let set = pins.get(host);
      if (!set) pins.set(host, (set = new Set()));
      const own = set;
      own.add(addresses);
      return () => {
        own.delete(addresses);
        if (own.size === 0 && pins.get(host) === own) pins.delete(host);
      };
    },
    lookup(hostname, options, callback) {
      const sets = pins.get(hostname);
      const latest = sets ? [...sets].at(-1) : undefined;
      const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0);
      const candidates = (latest ?? []).filter((a) => family === 0 || a.family === family);
      // net expects an asynchronous answer (it attaches listeners after calling us).
      process.nextTick(() => {
        const first = candidates[0];
        if (!first) {
          const err: NodeJS.ErrnoException = new Error(`no validated address for ${hostname}`);
          err.code = 'ENOTPINNED';
          callback(err, []);
        } else if (options.all) {
          callback(null, candidates.map((a) => ({ address: a.address, family: a.family })));
        } else {
          callback(null, first.address, first.family);
        }
      });
    },
  };
}

export function createSafeFetcher(cfg: SafeFetcherConfig): SafeFetcher {
  const policy = cfg.policy;
  const staticResolve = cfg.staticResolve ?? new Map<string, string[]>();
  const resolver = cfg.resolver ?? systemResolver;

  const { pin, lookup } = createPinRegistry();

  const agent = new Agent({
    connect: {
      lookup,
      timeout: cfg.connectTimeoutMs ?? 5000,
      ...(cfg.ca ? { ca: cfg.ca } : {}),
    },
    // One document per request: HTTP/1.1 keeps the timeout and body semantics on the simplest path.
    allowH2: false,
    keepAliveTimeout: 4000,
  });

  const resolveValidated = async (hostname: string, signal: AbortSignal): Promise<PinnedAddress[]> => {
    const key = stripDot(hostname);
    let answers: readonly string[] | undefined = staticResolve.get(key);
    if (!answers) {
      try {
        answers = await abortable(resolver(hostname), signal);
      } catch (err) {
        // The deadline ran out while resolving: a resolution failure, not a slow server. Callers show
        // resolution failures like refused addresses, and a name whose resolver hangs (an internal
        // zone) must not read differently from one that does not exist.
        if (err instanceof OutboundError && err.reason === 'timeout') {
          throw new OutboundError('dns', `${key} did not resolve in time (${err.detail})`, { cause: err });
        }
        if (err instanceof OutboundError || signal.aborted) throw err;
        const code = errorCode(err);
        const reason = code !== undefined && NO_SUCH_HOST_CODES.has(code) ? 'no-such-host' : 'dns';
        throw new OutboundError(reason, `${key} did not resolve (${code ?? 'error'})`, { cause: err });
      }
    }
    if (answers.length === 0) throw new OutboundError('no-such-host', `${key} has no A or AAAA records`);
    const out: PinnedAddress[] = [];
    // All or nothing: one private answer means the name is hostile or misconfigured either way.
    for (const ip of answers) {
      const parsed = parseIp(ip);
      if (!parsed || !policy.isPublicOrAllowed(ip)) {
        throw new OutboundError('blocked-address', `${key} resolves to ${policy.describe(ip)}`);
      }
      if (!out.some((a) => a.address === ip)) out.push({ address: ip, family: parsed.kind() === 'ipv4' ? 4 : 6 });
    }
    return out;
  };

  const request = async (url: URL, req: SafeRequest): Promise<SafeResponse> => {
    if (!(req.maxBytes > 0) || !(req.timeoutMs > 0) || !(req.maxRedirects >= 0)) {
      throw new OutboundError('invalid-request', 'maxBytes and timeoutMs must be positive, maxRedirects non-negative');
    }
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new OutboundError('timeout', `no complete response within ${req.timeoutMs} ms`)),
      req.timeoutMs,
    );
    const signal = req.signal ? AbortSignal.any([req.signal, deadline.signal]) : deadline.signal;

    let current = url;
    let method: 'GET' | 'POST' = req.method ?? 'GET';
    let body = req.body;
    let headers = ownHeaders(req.headers);
    const hops: SafeHop[] = [];
    try {
      for (;;) {
        const check = checkParsedUrl(current, policy);
        if (!check.ok) throw new OutboundError(check.reason, `${where(current)}: ${check.message}`);
        let release = (): void => {};
        if (ipLiteralOf(current.hostname) === null) {
          release = pin(current.hostname, await resolveValidated(current.hostname, signal));
        }
        try {
          // Our own timer rather than undici's headersTimeout, which runs on ~1 s-resolution fast timers.
          const hop = new AbortController();
          const headersMs = req.headersTimeoutMs ?? req.timeoutMs;
          const origin = current.origin;
          const headersTimer =
            headersMs < req.timeoutMs
              ? setTimeout(() => hop.abort(new OutboundError('timeout', `no response headers from ${origin} within ${headersMs} ms`)), headersMs)
              : undefined;
          let res: Dispatcher.ResponseData;
          try {
            res = await agent.request({
              origin,
              path: current.pathname + current.search,
              method,
              headers: { ...headers, 'accept-encoding': ACCEPT_ENCODING },
              body: body ?? null,
              signal: AbortSignal.any([signal, hop.signal]),
              headersTimeout: 0, // ours above, or the total deadline
              bodyTimeout: 0, // the total deadline bounds a trickling body
            });
          } finally {
            clearTimeout(headersTimer);
          }
          const status = res.statusCode;
          const resHeaders = cleanHeaders(res.headers);

          if (REDIRECT_STATUSES.has(status)) {
            hops.push({ url: current.href, status, setCookies: asArray(resHeaders['set-cookie']) });
            await discard(res.body);
            if (req.maxRedirects === 0) throw new OutboundError('redirect', `${current.origin} answered ${status}; redirects are not followed`, { status });
            const location = utf8Header(first(resHeaders['location']));
            if (location === undefined) throw new OutboundError('redirect', `${current.origin} answered ${status} without Location`, { status });
            if (hops.length > req.maxRedirects) throw new OutboundError('too-many-redirects', `more than ${req.maxRedirects} redirects`);
            let next: URL;
            try {
              next = new URL(location, current);
            } catch {
              throw new OutboundError('bad-url', `${current.origin} redirected to an invalid Location`);
            }
            if (next.protocol === 'http:') throw new OutboundError('downgrade', `${current.origin} redirected to plain http ${where(next)}`);
            // Same rewrite as fetch/browsers: 303, and 301/302 after POST, continue as a body-less GET.
            if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
              method = 'GET';
              body = undefined;
              headers = withoutHeaders(headers, new Set(['content-type']));
            }
            if (next.origin !== current.origin) headers = withoutHeaders(headers, CROSS_ORIGIN_STRIPPED);
            current = next;
            continue;
          }

          if (status >= 400 && req.failOnHttpError !== false) {
            drop(res.body);
            throw new OutboundError('http-status', `${current.origin} answered ${status}`, { status });
          }
          const bytes = await readBody(res.body, resHeaders, req.maxBytes, signal, current.origin, req.overflow === 'truncate');
          return { finalUrl: current, status, headers: resHeaders, body: bytes, hops };
        } finally {
          release();
        }
      }
    } catch (err) {
      const failure =
        err instanceof OutboundError
          ? err
          : deadline.signal.aborted
            ? (deadline.signal.reason as OutboundError)
            : req.signal?.aborted
              ? new OutboundError('aborted', `request to ${current.origin} was cancelled`, { cause: err })
              : classify(err, current.origin);
      failure.redirects = hops.length;
      throw failure;
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    request,
    close: () => agent.close(),
  };
}

function ownHeaders(input: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(input ?? {})) {
    const lower = name.toLowerCase();
    if (!OWNED_HEADERS.has(lower)) out[lower] = value;
  }
  return out;
}

function withoutHeaders(headers: Record<string, string>, drop: ReadonlySet<string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !drop.has(name)));
}

function cleanHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(raw)) if (value !== undefined) out[name] = value;
  return out;
}

/** scheme://host:port only: paths and queries may carry tokens, userinfo carries passwords. */
const where = (url: URL): string => `${url.protocol}//${url.host}`;

/** undici hands header values over as latin1; Location is UTF-8 in practice (browsers decode it so). */
function utf8Header(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const bytes = Buffer.from(value, 'latin1');
  return isUtf8(bytes) ? bytes.toString('utf8') : value;
}

const asArray = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const first = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

async function discard(body: Dispatcher.ResponseData['body']): Promise<void> {
  // Reading a little keeps the connection reusable for the next hop; beyond that, just drop it.
  try {
    await body.dump({ limit: 64 * 1024 });
  } catch {
    /* the hop is recorded already; a broken redirect body does not matter */
  }
}

/** Abandons a response body; undici reports destroying an unfinished body as an 'error' event. */
function drop(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => {});
  body.destroy();
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

type Coding = 'identity' | 'gzip' | 'deflate' | 'br';

function contentCoding(value: string | string[] | undefined, origin: string): Coding {
  const codings = asArray(value)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim().toLowerCase())
    .filter((v) => v !== '' && v !== 'identity');
  if (codings.length === 0) return 'identity';
  const only = codings.length === 1 ? codings[0] : undefined;
  if (only === 'gzip' || only === 'x-gzip') return 'gzip';
  if (only === 'deflate' || only === 'br') return only;
  // We advertised gzip, deflate, br only; stacked or other codings are not worth the risk surface.
  throw new OutboundError('bad-encoding', `${origin} sent unsupported Content-Encoding ${JSON.stringify(codings.join(', ').slice(0, 50))}`);
}

/** Stops the body pipeline once a truncating read has its bytes; never leaves readBody. */
const TRUNCATED = new Error('body truncated at the cap');

function tooLarge(maxBytes: number, origin: string): OutboundError {
  return new OutboundError('too-large', `${origin} body exceeds ${maxBytes} bytes`);
}

/**
 * Reads the body with a running count of *decoded* bytes. undici's request() does not decompress
 * (only fetch() and the opt-in decompress interceptor do), so the bytes we get are wire bytes and
 * decompression is ours: zlib streams honour backpressure and emit in 16 KiB chunks, so a bomb is
 * stopped within one chunk of the cap instead of inflating in memory first.
 */
async function readBody(
  body: Dispatcher.ResponseData['body'],
  headers: Record<string, string | string[]>,
  maxBytes: number,
  signal: AbortSignal,
  origin: string,
  truncate = false,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  let kept = 0;
  const collect = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      total += chunk.length;
      if (total > maxBytes) {
        if (!truncate) return callback(tooLarge(maxBytes, origin));
        chunks.push(chunk.subarray(0, maxBytes - kept));
        kept = maxBytes;
        return callback(TRUNCATED);
      }
      chunks.push(chunk);
      kept += chunk.length;
      callback();
    },
  });
  try {
    const coding = contentCoding(headers['content-encoding'], origin);
    if (coding === 'identity') {
      const declared = Number(first(headers['content-length']));
      if (!truncate && Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes, origin);
      await pipeline(body, collect, { signal });
      return Buffer.concat(chunks, total);
    }

    // Peek at the first chunk: an empty compressed body is legal (zlib would call it truncated), and
    // "deflate" is sent both zlib-wrapped (correct) and raw (old servers); the header tells which.
    const iterator = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    const head = await iterator.next();
    if (head.done) return Buffer.alloc(0);
    const firstChunk = head.value;
    const wireLimit = maxBytes + WIRE_SLACK_BYTES;
    async function* wire(): AsyncGenerator<Buffer> {
      let chunk: Buffer = firstChunk;
      let count = 0;
      for (;;) {
        count += chunk.length;
        if (count > wireLimit) throw tooLarge(maxBytes, origin);
        yield chunk;
        const next = await iterator.next();
        if (next.done) return;
        chunk = next.value;
      }
    }
    // Browsers render truncated compressed bodies; so do we (SYNC_FLUSH on finish).
    const lenient = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
    const isZlibWrapped =
      firstChunk.length >= 2 && ((firstChunk[0] ?? 0) & 0x0f) === 8 && (((firstChunk[0] ?? 0) << 8) | (firstChunk[1] ?? 0)) % 31 === 0;
    const decoder =
      coding === 'gzip'
        ? zlib.createGunzip(lenient)
        : coding === 'br'
          ? zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH })
          : isZlibWrapped
            ? zlib.createInflate(lenient)
            : zlib.createInflateRaw(lenient);
    await pipeline(Readable.from(wire(), { objectMode: false }), decoder, collect, { signal });
    return Buffer.concat(chunks, total);
  } catch (err) {
    drop(body);
    // Enough was read: what is kept is the answer (a too-large wire stream is the same case).
    if (truncate && !signal.aborted && (err === TRUNCATED || (err instanceof OutboundError && err.reason === 'too-large'))) {
      return Buffer.concat(chunks).subarray(0, maxBytes);
    }
    if (err instanceof OutboundError || signal.aborted) throw err;
    const code = errorCode(err);
    if (code?.startsWith('Z_') || code?.startsWith('ERR_BROTLI') || code === 'ERR__ERROR_FORMAT_PADDING_1') {
      throw new OutboundError('bad-encoding', `${origin} sent a corrupt compressed body (${code})`, { cause: err });
    }
    throw err;
  }
}

function errorCode(err: unknown): string | undefined {
  if (typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string') return err.code;
  return undefined;
}

/** getaddrinfo's answers for a name that does not exist or has no address; anything else may pass. */
const NO_SUCH_HOST_CODES = new Set(['ENOTFOUND', 'ENODATA']);

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_)|CERT|SIGNATURE|ISSUER|SELF_SIGNED|HOSTNAME_MISMATCH/;

/** Maps transport errors to a reason. Details carry error codes and the origin only. */
function classify(err: unknown, origin: string): OutboundError {
  // autoSelectFamily reports "all addresses failed" as an AggregateError of the per-address errors.
  const inner = err instanceof AggregateError ? (err.errors[0] as unknown) : err;
  const code = errorCode(inner) ?? errorCode(err);
  const say = (reason: OutboundReason, what: string): OutboundError =>
    new OutboundError(reason, `${what} (${origin}${code ? `, ${code}` : ''})`, { cause: err });
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
      return say('timeout', 'connect timeout');
    case 'UND_ERR_HEADERS_TIMEOUT':
      return say('timeout', 'no response headers in time');
    case 'UND_ERR_BODY_TIMEOUT':
      return say('timeout', 'body stalled');
    case 'UND_ERR_HEADERS_OVERFLOW':
      return say('too-large', 'response headers too large');
    case 'UND_ERR_INVALID_ARG':
      return say('invalid-request', 'request rejected by the HTTP client');
    case 'ECONNREFUSED':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EADDRNOTAVAIL':
    case 'ETIMEDOUT':
    case 'ENOTPINNED':
      return say('connect', 'could not connect');
    case 'EAI_AGAIN':
      return say('dns', 'name did not resolve');
  }
  if (code && NO_SUCH_HOST_CODES.has(code)) return say('no-such-host', 'name does not exist');
  if (code && TLS_CODE.test(code)) return say('tls', 'TLS handshake failed');
  if (typeof inner === 'object' && inner !== null && 'library' in inner) return say('tls', 'TLS handshake failed');
  return say('network', 'connection failed');
}
