// Query strings for the list routes: all text, converted to the route schema's types before the
// usual validation.
import type { FastifyRequest } from 'fastify';
import type { TObject } from 'typebox';
import { Value } from 'typebox/value';

/**
 * What an integer looks like in a query string: decimal digits, optionally negative. Value.Convert
 * is more lenient (it reads `1.5` as 1, `1e2` as 100, `0x10` as 16, ` 1` and `+1` as 1, the empty
 * string as 0), and a client sending any of those has a bug it should hear about.
 */
const INTEGER_TEXT = /^-?\d+$/;

/**
 * A list route's `preValidation`: the app validates without type coercion (a JSON body's "5" is
 * not 5), but a query string is all text, so it is converted to the schema's types first and then
 * validated as usual. An integer parameter that is not written as one stays text, so validation
 * refuses it with a 400 naming the parameter.
 */
export function convertQuery(schema: TObject) {
  const integers = Object.entries(schema.properties)
    .filter(([, property]) => (property as { type?: unknown }).type === 'integer')
    .map(([name]) => name);
  return async (request: FastifyRequest): Promise<void> => {
    const given = { ...(request.query as Record<string, unknown>) };
    const converted = Value.Convert(schema, request.query) as Record<string, unknown>;
    for (const name of integers) {
      const text = given[name];
      if (typeof text === 'string' && !INTEGER_TEXT.test(text)) converted[name] = text;
    }
    request.query = converted;
  };
}
