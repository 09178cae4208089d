// The API's body parsers: JSON only. Fastify's JSON parser already refuses the keys that could
// poison an object's prototype (`__proto__`, and `constructor` holding `prototype`), but calls such a
// body "not valid JSON", which it is: this parser keeps the protection and names the key instead.
// Fastify's text/plain parser is removed, so a JSON body sent under another content type is told
// so, rather than reaching validation as a string ("must be a JSON object").
import type { FastifyInstance } from 'fastify';

/** A client error (400) in the spec's shape: errors.ts answers `{"errors":{"body":"must not contain the key __proto__"}}`. */
export class ForbiddenJsonKeyError extends Error {
  readonly code = 'SVC_FORBIDDEN_JSON_KEY';
  readonly statusCode = 400;
  constructor(key: string) {
    super(`must not contain the key ${key}`);
  }
}

/** The first prototype-poisoning key of a valid JSON text, if any (JSON.parse defines `__proto__` as an own key, harmlessly). */
function forbiddenKey(text: string): string | undefined {
  let found: string | undefined;
  try {
    JSON.parse(text, (key, value: unknown) => {
      if (key === '__proto__') found ??= '__proto__';
      else if (key === 'constructor' && typeof value === 'object' && value !== null && Object.hasOwn(value, 'prototype')) found ??= 'constructor';
      return value;
    });
  } catch {
    return undefined;
  }
  return found;
}

export function registerJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body: string, done) => {
    parseJson(request, body, (error, value) => {
      const key = error ? forbiddenKey(body) : undefined;
      done(key ? new ForbiddenJsonKeyError(key) : error, value);
    });
  });
}
