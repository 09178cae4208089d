// One `POST /api/v1/audit` and what its answer means for the run: an audit, a wait and retry
// (429, 503), a refused key (401), or a page that was not audited and why. Every request is
// bounded by a timeout that covers the answer's body too, so a server that never answers cannot
// hang the run. Reasons carry the service's own error text (bounded, controls and bidi characters
// escaped) or a plain phrase, never an error code or an address.
import type { ApiAudit, Branch } from './model.ts';

export type AuditOutcome =
  | { kind: 'audited'; audit: ApiAudit }
  /** 429 or 503: wait `waitMs`, then send the same request again. */
  | { kind: 'retry'; status: 429 | 503; waitMs: number }
  | { kind: 'unauthorized' }
  | { kind: 'not-audited'; status: number | null; reason: string }
  /** The run stopped (another request met a 401) while this one was in flight. */
  | { kind: 'cancelled' };

export interface AuditRequest {
  server: string;
  apiKey: string;
  url: string;
  branch: Branch;
  standard?: string;
  includeWarnings: boolean;
}

export interface RequestContext {
  fetch: typeof fetch;
  timeoutMs: number;
  /** Aborted when the whole run stops. */
  stop: AbortSignal;
  /** Milliseconds, for a Retry-After given as an HTTP date. */
  now: () => number;
}

/** The longest single wait a 429 or 503 can ask for; a longer Retry-After is cut to it. */
export const MAX_WAIT_MS = 120_000;
/** The wait when an answer names none. */
export const DEFAULT_WAIT_MS = 5_000;
/** A service error text is cut to this many characters (and its controls and bidi characters escaped). */
const MAX_REASON = 300;

export function auditBody(request: AuditRequest): string {
  return JSON.stringify({
    url: request.url,
    branch: request.branch,
    includeWarnings: request.includeWarnings,
    ...(request.branch === 'wcag' && request.standard !== undefined ? { standard: request.standard } : {}),
  });
}

export async function requestAudit(request: AuditRequest, context: RequestContext): Promise<AuditOutcome> {
  if (context.stop.aborted) return { kind: 'cancelled' };
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, context.timeoutMs);
  const onStop = () => controller.abort();
  context.stop.addEventListener('abort', onStop, { once: true });
  try {
    let response: Response;
    let text: string;
    try {
      response = await context.fetch(`${request.server.replace(/\/+$/, '')}/api/v1/audit`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'x-api-key': request.apiKey },
        body: auditBody(request),
        // A redirect is never followed: the key would go along to wherever it points.
        redirect: 'manual',
        signal: controller.signal,
      });
      text = await response.text();
    } catch (error) {
      if (timedOut) return { kind: 'not-audited', status: null, reason: 'timed out' };
      if (context.stop.aborted) return { kind: 'cancelled' };
      return { kind: 'not-audited', status: null, reason: unreachableReason(error) };
    }
    return interpret(response.status, response.headers, text, context.now());
  } finally {
    clearTimeout(timer);
    context.stop.removeEventListener('abort', onStop);
  }
}

/** What an answer means; exported for tests. */
export function interpret(status: number, headers: Headers, text: string, nowMs: number): AuditOutcome {
  if (status === 429 || status === 503) return { kind: 'retry', status, waitMs: retryDelayMs(headers, nowMs) };
  if (status === 401) return { kind: 'unauthorized' };
  const body = parseJson(text);
  if (status >= 200 && status < 300) {
    if (isAudit(body)) return { kind: 'audited', audit: body };
    return { kind: 'not-audited', status, reason: body === undefined ? 'the service answered something other than JSON' : 'the service answered without an audit' };
  }
  if (status >= 300 && status < 400) return { kind: 'not-audited', status, reason: `the service answered with a redirect (HTTP ${status}): check the server URL` };
  if (status === 400) return { kind: 'not-audited', status, reason: `request refused: ${fieldErrors(body) ?? errorText(body) ?? 'bad request'}` };
  return { kind: 'not-audited', status, reason: errorText(body) ?? `the service answered HTTP ${status}` };
}

/**
 * How long to wait before retrying a 429 or 503: Retry-After (seconds, or an HTTP date), else
 * RateLimit-Reset (seconds), else DEFAULT_WAIT_MS; at least a second, at most MAX_WAIT_MS.
 */
export function retryDelayMs(headers: Headers, nowMs: number): number {
  const ms = seconds(headers.get('retry-after'), nowMs) ?? seconds(headers.get('ratelimit-reset'), Number.NaN) ?? DEFAULT_WAIT_MS;
  return Math.min(MAX_WAIT_MS, Math.max(1000, ms));
}

function seconds(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  if (Number.isNaN(nowMs)) return undefined;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isAudit(body: unknown): body is ApiAudit {
  if (typeof body !== 'object' || body === null) return false;
  const audit = body as Record<string, unknown>;
  return typeof audit.id === 'string' && Array.isArray(audit.findings) && audit.findings.every((f) => typeof f === 'object' && f !== null);
}

function errorText(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const error = (body as Record<string, unknown>).error;
  return typeof error === 'string' && error !== '' ? cut(error) : undefined;
}

/** `url: must be an https URL; standard: …` from `{"errors":{field:message}}`. */
function fieldErrors(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const errors = (body as Record<string, unknown>).errors;
  if (typeof errors !== 'object' || errors === null) return undefined;
  const parts = Object.entries(errors).map(([field, message]) => `${field}: ${typeof message === 'string' ? message : 'invalid'}`);
  return parts.length === 0 ? undefined : cut(parts.join('; '));
}

/** Text from the network as a reason: bounded (kept raw; what prints it escapes it: terminal-text.ts). */
function cut(text: string): string {
  return text.length > MAX_REASON ? `${text.slice(0, MAX_REASON)}…` : text;
}

/** "server unreachable", with "TLS failure" when the connection failed on the certificate. */
function unreachableReason(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  const code = typeof cause?.code === 'string' ? cause.code : '';
  return /CERT|SSL|TLS|SELF_SIGNED/.test(code) ? 'server unreachable (TLS failure)' : 'server unreachable';
}
