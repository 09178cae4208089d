// Every error a client can act on has the spec's stable shape; nothing internal leaks into a body.
import type { FastifyError, FastifyInstance } from 'fastify';
import { Type } from 'typebox';

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
    if (error.keyword === 'required') {
      field = String(error.params.missingProperty);
      message = 'is required';
    } else if (error.keyword === 'additionalProperties') {
      field = String(error.params.additionalProperty);
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

export function registerErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.validation) {
      return reply.code(400).send(fieldErrors(validationErrorsToFields(error.validation as AjvError[])));
    }
    const bodyMessage = error.code ? BODY_ERRORS[error.code] : undefined;
    if (bodyMessage) return reply.code(400).send(fieldErrors({ body: bodyMessage }));
    // JSON.parse failures surface as a SyntaxError with status 400 from the content parser.
    if (error instanceof SyntaxError || (error.statusCode === 400 && error.code === undefined)) {
      return reply.code(400).send(fieldErrors({ body: 'is not valid JSON' }));
    }
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      request.log.info({ code: error.code }, 'client error');
      return reply.code(error.statusCode).send({ error: error.message });
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.code(500).send({ error: 'internal server error' });
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: 'not found' }));
}
