// How the link controls turn what they found into an outcome: evidence quotes the element's name
// and its href (or says what was looked for), always within the 200-character bound.
import type { Location, Outcome } from '../../control.ts';
import { normalizeText, truncate } from '../../page.ts';

/** Every outcome's evidence is at most this long. */
export const EVIDENCE_MAX = 200;

/** Builds an outcome, collapsing whitespace and enforcing the evidence bound whatever the caller passed. */
export function outcome(status: Outcome['status'], evidence: string, location?: Location): Outcome {
  const text = normalizeText(evidence);
  const bounded = text.length <= EVIDENCE_MAX ? text : `${truncate(text, EVIDENCE_MAX - 1)}…`;
  return location === undefined ? { status, evidence: bounded } : { status, evidence: bounded, location };
}

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

/** Lists examples as `"a", "b", …` within `budget` characters. */
export function examples(list: readonly string[], budget: number): string {
  let out = '';
  for (const example of list) {
    const next = `${out === '' ? '' : ', '}"${example}"`;
    if (out.length + next.length + 3 > budget) return `${out}, …`;
    out += next;
  }
  return out;
}

/** `<head> (looked for: "a", "b", …)`, within the evidence bound. */
export function lookedFor(status: Outcome['status'], head: string, list: readonly string[]): Outcome {
  const text = `${head} (looked for: `;
  return outcome(status, `${text}${examples(list, EVIDENCE_MAX - text.length - 1)})`);
}
