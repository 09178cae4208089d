// Evidence rules every branch shares: one bound (200 characters), whitespace collapsed, and the
// "looked for" lists that say what a control searched when it found nothing.
import type { Location, Outcome } from './control.ts';
import { normalizeText, truncate } from './page.ts';

/** Every outcome's evidence is at most this long. */
export const EVIDENCE_MAX = 200;

/** Builds an outcome, collapsing whitespace and enforcing the evidence bound whatever the caller passed. */
export function outcome(status: Outcome['status'], evidence: string, location?: Location): Outcome {
  const text = normalizeText(evidence);
  const bounded = text.length <= EVIDENCE_MAX ? text : `${truncate(text, EVIDENCE_MAX - 1)}…`;
  return location === undefined ? { status, evidence: bounded } : { status, evidence: bounded, location };
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

/** `<head> (looked for: "a", "b", …)` as a fail, within the evidence bound. */
export function lookedFor(head: string, list: readonly string[]): Outcome {
  const text = `${head} (looked for: `;
  return outcome('fail', `${text}${examples(list, EVIDENCE_MAX - text.length - 1)})`);
}
