// How the link controls turn what they found into an outcome: evidence quotes the element's name
// and its href (or says what was looked for), always within the 200-character bound.
import type { Location, Outcome } from '../../control.ts';
import { normalizeText, truncate } from '../../page.ts';
import { EVIDENCE_MAX, examples, lookedFor, outcome } from '../../evidence.ts';

export { EVIDENCE_MAX, examples, lookedFor, outcome };


/** `"<name>"` cut to `max` characters (with an ellipsis), or `(no name)`. */
export function quoteName(name: string, max = 60): string {
  const text = normalizeText(name);
  if (text === '') return '(no name)';
  return `"${text.length <= max ? text : `${truncate(text, max - 1)}…`}"`;
}

/** A URL cut to `max` characters (with an ellipsis). */
export function shortUrl(href: string, max = 90): string {
  return href.length <= max ? href : `${truncate(href, max - 1)}…`;
}


