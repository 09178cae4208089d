// A fake OpenAI-compatible chat-completions server on loopback, scripted per test: each call to
// `POST /v1/chat/completions` takes the next step of the script, so a test says exactly what the
// "model" answers on the first and on the retry call. A call beyond the script answers 500 with a
// message naming the problem, so a test that makes one call too many fails visibly.
//
//   const ai = await startFakeOpenAi([{ answer: { judgements: [...] } }, { status: 500 }]);
//   const config = { baseUrl: ai.baseUrl, apiKey: 'k', model: 'm', timeoutMs: 200 };
//   ... ai.calls[0].body.messages, ai.calls[0].headers.authorization, await ai.calls[0].ended ...
//   await ai.close();
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { startHttpFixture, type Fixture } from './https-fixture.ts';

export type FakeStep =
  /** A chat completion whose content is `JSON.stringify(answer)` (or `answer` itself when a string). */
  | { answer: unknown }
  /** A strict-mode refusal: `message.refusal` set, `content` null. */
  | { refusal: string }
  /** An error status with a body (default a JSON error object). */
  | { status: number; body?: string }
  /** A 200 with this exact body (not a chat completion, truncated JSON, …). */
  | { raw: string }
  /** Never answers: the client's timeout must end the call. */
  | { hang: true }
  /** Sends the status line, headers and part of the body, then stalls. */
  | { stall: true }
  /** Decides from the request (e.g. answers every element the prompt asks about). */
  | { reply: (call: FakeCall) => Exclude<FakeStep, { reply: unknown }> };

export interface FakeCall {
  headers: IncomingHttpHeaders;
  /** The request body as sent. */
  raw: string;
  /** The request body parsed (undefined when it is not JSON). */
  body: {
    model?: string;
    messages?: { role: string; content: string }[];
    response_format?: { type?: string; json_schema?: { name?: string; strict?: boolean; schema?: unknown } };
    [field: string]: unknown;
  };
  /** Settles when the exchange ends: `answered` once the response is sent, `aborted` when the client went away first. */
  ended: Promise<'answered' | 'aborted'>;
}

export interface FakeOpenAi {
  /** `http://127.0.0.1:<port>/v1`, as AUDIT_AI_BASE_URL would be. */
  readonly baseUrl: string;
  readonly calls: FakeCall[];
  /** Appends steps to the script. */
  script(...steps: FakeStep[]): void;
  /** Forgets the calls and any steps left over from the last test. */
  reset(): void;
  readonly fixture: Fixture;
  close(): Promise<void>;
}

function completion(message: Record<string, unknown>): string {
  return JSON.stringify({
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 0,
    model: 'fake',
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: 'stop' }],
  });
}

function send(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(body);
}

export async function startFakeOpenAi(steps: FakeStep[] = []): Promise<FakeOpenAi> {
  const queue = [...steps];
  const calls: FakeCall[] = [];
  const fixture = await startHttpFixture({
    '/v1/chat/completions': (req, res, recorded) => {
      let body: FakeCall['body'];
      try {
        body = JSON.parse(recorded.body);
      } catch {
        body = {};
      }
      const ended = new Promise<'answered' | 'aborted'>((resolve) => res.once('close', () => resolve(res.writableFinished ? 'answered' : 'aborted')));
      const call = { headers: req.headers, raw: recorded.body, body, ended };
      calls.push(call);
      const next = queue.shift();
      const step = next !== undefined && 'reply' in next ? next.reply(call) : next;
      if (step === undefined) return send(res, 500, JSON.stringify({ error: { message: `fake-openai: no scripted reply for call ${calls.length}` } }));
      if ('hang' in step) return undefined;
      if ('stall' in step) return void res.writeHead(200, { 'content-type': 'application/json' }).write('{"choices":[{"message":');
      if ('status' in step) return send(res, step.status, step.body ?? JSON.stringify({ error: { message: 'fake provider error', type: 'server_error' } }));
      if ('raw' in step) return send(res, 200, step.raw);
      if ('refusal' in step) return send(res, 200, completion({ content: null, refusal: step.refusal }));
      return send(res, 200, completion({ content: typeof step.answer === 'string' ? step.answer : JSON.stringify(step.answer) }));
    },
  });
  return {
    baseUrl: fixture.url('127.0.0.1', '/v1'),
    calls,
    script: (...more) => void queue.push(...more),
    reset: () => {
      queue.length = 0;
      calls.length = 0;
    },
    fixture,
    close: () => fixture.close(),
  };
}
