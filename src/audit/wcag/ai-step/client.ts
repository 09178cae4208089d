// An OpenAI-compatible chat-completions client: `POST ${baseUrl}/chat/completions` with a
// json_schema response format, reading `choices[0].message.content` as JSON. That one request
// shape is served by hosted APIs and by local servers (Ollama, vLLM, llama.cpp's llama-server).
//
// The endpoint is operator configuration, so this uses undici directly and not the safe-fetch
// module, whose address policy is for user-supplied targets (a local model on 127.0.0.1 must
// work). Each call is bounded in time (AbortSignal) and in response size. No error text carries
// the API key: it is only ever put in the Authorization header, and anything the provider sends
// back is redacted before it reaches a message.
import { request, type Dispatcher } from 'undici';
import type { AiConfig } from '../../../config.ts';

/** Largest response body read; a chat completion with this schema is a few kilobytes. */
export const RESPONSE_MAX_BYTES = 1024 * 1024;
/** Characters of a provider's error body kept for the log. */
const ERROR_BODY_EXCERPT = 300;

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatRequest {
  messages: readonly ChatMessage[];
  /** Sent as `response_format: {type: 'json_schema', json_schema: {name, strict: true, schema}}`. */
  schema: { name: string; schema: Record<string, unknown> };
  /** The caller's cancellation, on top of the configured timeout. */
  signal?: AbortSignal;
}

/** What the model said: JSON, or content that is not JSON (a non-conformant answer, not a provider failure). */
export type ChatReply = { json: true; value: unknown; content: string } | { json: false; content: string; problem: string };

export type ProviderFailure =
  | 'timeout' // no complete answer within AUDIT_AI_TIMEOUT_MS
  | 'aborted' // the caller's signal
  | 'http-status' // anything but 2xx (redirects are not followed)
  | 'network' // refused, reset, DNS, TLS
  | 'bad-response'; // not a chat completion (no choices[0].message), or over RESPONSE_MAX_BYTES

/** A provider failure; `message` is safe to log (no key, bounded provider text). */
export class ProviderError extends Error {
  readonly reason: ProviderFailure;
  readonly status: number | undefined;

  constructor(reason: ProviderFailure, message: string, status?: number) {
    super(message);
    this.name = 'ProviderError';
    this.reason = reason;
    this.status = status;
  }
}

export interface ChatClient {
  complete(req: ChatRequest): Promise<ChatReply>;
}

export interface ChatClientOptions {
  /** An undici dispatcher (proxy, custom TLS); default the global one. */
  dispatcher?: Dispatcher;
}

/** Replaces every occurrence of the key (and its Bearer form) in a text going to a log or error. */
export function redact(text: string, apiKey: string | undefined): string {
  return apiKey === undefined || apiKey === '' ? text : text.split(apiKey).join('[redacted]');
}

/**
 * Some local models wrap JSON in a Markdown fence when the server does not constrain decoding;
 * the content inside is the answer, so the fence alone is no reason to fail.
 */
function unfence(content: string): string {
  const match = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/i.exec(content);
  return match ? match[1]! : content;
}

export function createChatClient(config: AiConfig, options: ChatClientOptions = {}): ChatClient {
  const url = `${config.baseUrl}/chat/completions`;
  const origin = new URL(url).origin;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (config.apiKey !== undefined) headers.authorization = `Bearer ${config.apiKey}`;
  const safe = (text: string) => redact(text, config.apiKey);

  return {
    async complete(req) {
      const body = JSON.stringify({
        model: config.model,
        messages: req.messages,
        response_format: { type: 'json_schema', json_schema: { name: req.schema.name, strict: true, schema: req.schema.schema } },
        stream: false,
      });
      const timeout = AbortSignal.timeout(config.timeoutMs);
      const signal = req.signal === undefined ? timeout : AbortSignal.any([timeout, req.signal]);
      const failure = (error: unknown): ProviderError => {
        if (error instanceof ProviderError) return error;
        if (timeout.aborted) return new ProviderError('timeout', `no answer from ${origin} within ${config.timeoutMs} ms`);
        if (req.signal?.aborted) return new ProviderError('aborted', `request to ${origin} cancelled`);
        const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
        return new ProviderError('network', safe(`request to ${origin} failed: ${code ?? (error as Error).message}`));
      };
      let text: string;
      let status: number;
      try {
        const res = await request(url, { method: 'POST', headers, body, signal, ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}) });
        status = res.statusCode;
        text = await readBounded(res.body, origin);
      } catch (error) {
        throw failure(error);
      }
      if (status < 200 || status > 299) {
        const excerpt = safe(text.slice(0, ERROR_BODY_EXCERPT)).replace(/\s+/g, ' ');
        throw new ProviderError('http-status', `HTTP ${status} from ${origin}: ${excerpt}`, status);
      }
      let envelope: unknown;
      try {
        envelope = JSON.parse(text);
      } catch {
        throw new ProviderError('bad-response', `the answer from ${origin} is not JSON`);
      }
      const message = (envelope as { choices?: { message?: { content?: unknown; refusal?: unknown } }[] })?.choices?.[0]?.message;
      if (message === undefined || message === null || typeof message !== 'object') {
        throw new ProviderError('bad-response', `the answer from ${origin} has no choices[0].message`);
      }
      // A strict-mode refusal comes without content; it is the model's answer, and not a conformant one.
      if (typeof message.refusal === 'string' && message.refusal !== '') {
        return { json: false, content: '', problem: safe(`the model refused: ${message.refusal.slice(0, ERROR_BODY_EXCERPT)}`) };
      }
      if (typeof message.content !== 'string') {
        throw new ProviderError('bad-response', `the answer from ${origin} has no text content in choices[0].message`);
      }
      const content = message.content;
      try {
        return { json: true, value: JSON.parse(unfence(content)), content };
      } catch (error) {
        return { json: false, content, problem: `the content is not valid JSON (${(error as Error).message.slice(0, 120)})` };
      }
    },
  };
}

async function readBounded(body: Dispatcher.ResponseData['body'], origin: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > RESPONSE_MAX_BYTES) {
      body.destroy();
      throw new ProviderError('bad-response', `the answer from ${origin} is over ${RESPONSE_MAX_BYTES} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
