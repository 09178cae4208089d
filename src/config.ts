// Environment → typed, validated configuration. Every variable is documented in the README's
// table; a bad value stops the process at start with a message naming the variable.
import path from 'node:path';
import { DEFAULT_CRAWL_LIMITS } from './audit/crawl.ts';
import { parseCidrList, parseStaticResolve, type Cidr } from './net/address-policy.ts';

export interface Config {
  host: string;
  port: number;
  /** PostgreSQL connection string; when absent the embedded PGlite database is used. */
  databaseUrl: string | undefined;
  dataDir: string;
  seedApiKey: string | undefined;
  rateLimit: { limit: number; windowSeconds: number };
  crawl: { timeoutMs: number; maxBytes: number; maxRedirects: number };
  /** The WCAG branch's AI step; undefined when AUDIT_AI_BASE_URL is unset (deterministic rules only). */
  ai: AiConfig | undefined;
  allowPrivateNetworks: Cidr[];
  staticResolve: Map<string, string[]>;
  /** Bounds on how long a client may take to send a request, and to keep an idle connection. */
  http: { headersTimeoutMs: number; requestTimeoutMs: number; keepAliveTimeoutMs: number };
  logLevel: string;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

function parsed<T>(env: Env, name: string, parse: (value: string) => T, fallback: T): T {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  try {
    return parse(raw);
  } catch (error) {
    throw new ConfigError(`${name}: ${(error as Error).message}`);
  }
}

const SEED_API_KEY_MIN_LENGTH = 32;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

// ---- AI step (issue 10): an OpenAI-compatible chat-completions endpoint -----------------------
// The endpoint is operator configuration, not a user-supplied target, so the address policy does
// not apply to it (a local Ollama on 127.0.0.1 is the common case). No message below ever echoes
// the API key, nor a URL that might carry credentials.

export interface AiConfig {
  /** Base URL including `/v1`, as in the OpenAI SDKs, without a trailing slash. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` when set; local servers usually need none. */
  apiKey: string | undefined;
  model: string;
  /** Bound on one chat-completions call; the step makes at most two. */
  timeoutMs: number;
}

export const AI_TIMEOUT_DEFAULT_MS = 20_000;

function loadAiConfig(env: Env): AiConfig | undefined {
  const base = env.AUDIT_AI_BASE_URL?.trim();
  const apiKey = env.AUDIT_AI_API_KEY?.trim() || undefined;
  const model = env.AUDIT_AI_MODEL?.trim();
  if (!base) {
    // A model or key without an endpoint is a half-done configuration, not a wish to run without AI.
    for (const name of ['AUDIT_AI_MODEL', 'AUDIT_AI_API_KEY'] as const) {
      if (env[name]?.trim()) throw new ConfigError(`${name} is set but AUDIT_AI_BASE_URL is not; set both, or neither to run without the AI step`);
    }
    return undefined;
  }
  const example = 'e.g. http://127.0.0.1:11434/v1';
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new ConfigError(`AUDIT_AI_BASE_URL must be an absolute http(s) URL (${example})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`AUDIT_AI_BASE_URL must use http or https, got "${url.protocol}" (${example})`);
  }
  // Credentials in the URL would end up in logs and error texts; the key has its own variable.
  if (url.username !== '' || url.password !== '') {
    throw new ConfigError('AUDIT_AI_BASE_URL must not contain credentials; put the key in AUDIT_AI_API_KEY');
  }
  if (url.search !== '' || url.hash !== '') {
    throw new ConfigError(`AUDIT_AI_BASE_URL must not have a query or fragment: "/chat/completions" is appended to it (${example})`);
  }
  // Printable ASCII without spaces: anything else cannot travel in an HTTP header intact.
  if (apiKey !== undefined && !/^[\x21-\x7e]+$/.test(apiKey)) {
    throw new ConfigError('AUDIT_AI_API_KEY must be printable ASCII without spaces');
  }
  if (!model) throw new ConfigError(`AUDIT_AI_MODEL is required when AUDIT_AI_BASE_URL is set (the model name the server knows, e.g. "llama3.1:8b")`);
  return {
    baseUrl: url.href.replace(/\/+$/, ''),
    apiKey,
    model,
    timeoutMs: integer(env, 'AUDIT_AI_TIMEOUT_MS', AI_TIMEOUT_DEFAULT_MS, 100, 300_000),
  };
}

export function loadConfig(env: Env = process.env): Config {
  const logLevel = env.LOG_LEVEL?.trim() || 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const seed = env.AUDIT_SEED_API_KEY?.trim();
  // The seed is a secret anyone who guesses it can spend; 32 characters is what a generator gives
  // (`openssl rand -hex 16` and up), not what a person types as an example.
  if (seed && seed.length < SEED_API_KEY_MIN_LENGTH) {
    throw new ConfigError(
      `AUDIT_SEED_API_KEY must be at least ${SEED_API_KEY_MIN_LENGTH} characters long (got ${seed.length}): ` +
        'a short key can be guessed; generate one with `openssl rand -hex 32`',
    );
  }
  const http = {
    headersTimeoutMs: integer(env, 'AUDIT_HEADERS_TIMEOUT_MS', 10_000, 100, 600_000),
    requestTimeoutMs: integer(env, 'AUDIT_REQUEST_TIMEOUT_MS', 30_000, 100, 600_000),
    keepAliveTimeoutMs: integer(env, 'AUDIT_KEEP_ALIVE_TIMEOUT_MS', 72_000, 100, 600_000),
  };
  // Node refuses a headers timeout longer than the whole-request one; say so in our own words.
  if (http.headersTimeoutMs > http.requestTimeoutMs) {
    throw new ConfigError(
      `AUDIT_HEADERS_TIMEOUT_MS (${http.headersTimeoutMs}) must not exceed AUDIT_REQUEST_TIMEOUT_MS (${http.requestTimeoutMs})`,
    );
  }
  return {
    host: env.HOST?.trim() || '127.0.0.1',
    port: integer(env, 'PORT', 3000, 0, 65535),
    databaseUrl: env.DATABASE_URL?.trim() || undefined,
    dataDir: path.resolve(env.AUDIT_DATA_DIR?.trim() || './data'),
    seedApiKey: seed || undefined,
    rateLimit: {
      limit: integer(env, 'AUDIT_RATE_LIMIT', 10, 1, 1_000_000),
      windowSeconds: integer(env, 'AUDIT_RATE_WINDOW_SECONDS', 60, 1, 86_400),
    },
    crawl: {
      timeoutMs: integer(env, 'AUDIT_CRAWL_TIMEOUT_MS', DEFAULT_CRAWL_LIMITS.timeoutMs, 100, 120_000),
      maxBytes: integer(env, 'AUDIT_CRAWL_MAX_BYTES', DEFAULT_CRAWL_LIMITS.maxBytes, 1024, 64 * 1024 * 1024),
      maxRedirects: DEFAULT_CRAWL_LIMITS.maxRedirects,
    },
    ai: loadAiConfig(env),
    allowPrivateNetworks: parsed(env, 'AUDIT_ALLOW_PRIVATE_NETWORKS', parseCidrList, []),
    staticResolve: parsed(env, 'AUDIT_RESOLVE', parseStaticResolve, new Map()),
    http,
    logLevel,
  };
}

