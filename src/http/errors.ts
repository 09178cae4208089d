// Every error a client can act on has the spec's stable shape; nothing internal leaks into a body.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { isDatabaseUnavailable } from '../db/unavailable.ts';

export const FieldErrorsBody = Type.Object(
  { errors: Type.Record(Type.String(), Type.String()) },
  { description: 'Contract violations, keyed by field name; `body` for whole-body problems.' },
);
export const ErrorBody = Type.Object({ error: Type.String() });

export function fieldErrors(errors: Record<string, string>) {
  return { errors };
}

interface AjvError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** Maps Ajv's validation errors to `{field: message}`, keeping the first message per field. */
export function validationErrorsToFields(validation: readonly AjvError[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const error of validation) {
    const path = error.instancePath.replace(/^\//, '').replaceAll('/', '.');
    let field = path || 'body';
    let message = error.message ?? 'is invalid';
    // A nested object's own fields are named by their path (`trigger.severity`).
    const within = path ? `${path}.` : '';
    if (error.keyword === 'required') {
      field = `${within}${String(error.params.missingProperty)}`;
      message = 'is required';
    } else if (error.keyword === 'additionalProperties') {
      field = `${within}${String(error.params.additionalProperty)}`;
      message = 'is not a known field';
    } else if (error.keyword === 'enum') {
      message = `must be one of ${(error.params.allowedValues as unknown[]).join(', ')}`;
    } else if (error.keyword === 'type' && field === 'body') {
      message = 'must be a JSON object';
    }
    fields[field] ??= message;
  }
  return fields;
}

// Fastify's own client errors for bodies it could not read, answered as the spec's 400 shape.
const BODY_ERRORS: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Content-Type must be application/json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Content-Length does not match the body',
  FST_ERR_CTP_BODY_TOO_LARGE: 'is too large',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'must be a JSON object, got an empty body',
  FST_ERR_CTP_INVALID_JSON_BODY: 'is not valid JSON',
};

// Fastify's router refuses these URLs before any route matches (the `frameworkErrors` option).
const URL_ERRORS: Record<string, [status: number, error: string]> = {
  FST_ERR_BAD_URL: [400, 'malformed url'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'url too long'],
};

/** The app's error handler, also Fastify's `frameworkErrors` option. */
export function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error.validation) {
    return reply.code(400).send(fieldErrors(validationErrorsToFields(error.validation as AjvError[])));
  }
  const bodyMessage = error.code ? BODY_ERRORS[error.code] : undefined;
  if (bodyMessage) return reply.code(400).send(fieldErrors({ body: bodyMessage }));
  // JSON.parse failures surface as a SyntaxError with status 400 from the content parser.
  if (error instanceof SyntaxError || (error.statusCode === 400 && error.code === undefined)) {
    return reply.code(400).send(fieldErrors({ body: 'is not valid JSON' }));
  }
  const urlError = error.code ? URL_ERRORS[error.code] : undefined;
  if (urlError) {
    request.log.info({ code: error.code }, 'client error');
    return reply.code(urlError[0]).send({ error: urlError[1] });
  }
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    // Info, not error: the fault is the client's. This includes a client that closed the
    // connection mid-upload, or was closed by the request timeout (ECONNRESET "aborted").
    request.log.info({ code: error.code }, 'client error');
    // Routes document their 400 as `errors`; any other shape would fail the response serializer.
    if (error.statusCode === 400) {
      return reply.code(400).send(fieldErrors({ body: error.code === 'ECONNRESET' ? 'was not received in full' : error.message }));
    }
    return reply.code(error.statusCode).send({ error: error.message });
  }
  if (isDatabaseUnavailable(error)) return serviceUnavailable(error, request, reply);
  request.log.error({ err: error }, 'unexpected error');
  return reply.code(500).send({ error: 'internal server error' });
}

/** What a client is told to wait when the database is away: about one start-up back-off step. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * The database cannot be reached or did not answer within its bound: 503, and the work was not
 * done (an audit is stored by one statement, so it either committed or it did not; the one case no
 * protocol can rule out is a connection lost after the commit was sent and before its answer came).
 * The detail is the operator's.
 */
export function serviceUnavailable(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  request.log.warn({ err: error }, 'database unavailable: answering 503');
  return reply.code(503).header('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS)).send({ error: 'service unavailable' });
}

export function registerErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: 'not found' }));
  // HTTP/1.1 requires a Host header (RFC 9112, 3.2). Node's own check answers with an empty body,
  // so app.ts turns it off and it is done here instead, in the shape routes document for a 400.
  app.addHook('onRequest', async (request, reply) => {
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      return reply.code(400).send(fieldErrors({ host: 'header is required' }));
    }
  });
  // Node answers an Expect other than 100-continue with an empty 417 unless someone listens.
  app.server.on('checkExpectation', (_request: IncomingMessage, response: ServerResponse) => {
    const body = JSON.stringify({ error: 'expectation not supported' });
    response.writeHead(417, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), connection: 'close' });
    response.end(body);
  });
}

// What Node's HTTP server refuses before Fastify sees a request: an unparseable request line or
// header (NUL, obs-fold, conflicting Content-Length/Transfer-Encoding, unknown method), headers
// too large, and the header and whole-request timeouts.
const CLIENT_ERRORS: Record<string, [status: number, error: string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'request timeout'],
  HPE_HEADER_OVERFLOW: [431, 'request header fields too large'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'chunk extensions too large'],
  HPE_INVALID_METHOD: [400, 'unsupported method'],
};

/** Fastify's `clientErrorHandler`: answers on the raw socket in the spec's shape, then closes it. */
export function clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket: Duplex): void {
  // A reset connection is already gone: nobody to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] = CLIENT_ERRORS[error.code ?? ''] ?? [400, 'malformed request'];
  // The code only: a parser error carries the raw request bytes, API key included.
  this.log.info({ code: error.code, statusCode: status }, 'request refused before routing');
  // As Node does: never write into a response that has started (that would corrupt the
  // stream); just close.
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const body = JSON.stringify({ error: message });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
