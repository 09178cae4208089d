// The one way tests and benches find `../shared` (the corpora, the W3C ACT cases, the reference
// data). It sits beside the checkout in development and in CI, but a fresh clone from the public
// repository has none: its third-party pages must never be copied in. So a suite that needs it
// skips with one message naming the missing path, except in CI, where a skip would hide a broken
// path and the suite fails instead.
import fs from 'node:fs';
import path from 'node:path';

/** `AUDIT_SHARED_DIR` points the tests at another copy; the default is the folder beside the checkout. */
export const SHARED_DIR = path.resolve(process.env.AUDIT_SHARED_DIR || path.join(import.meta.dirname, '../../../shared'));

const inCi = process.env.CI === 'true';

/** An absolute path inside the shared folder, whether or not it exists. */
export function sharedPath(...parts: string[]): string {
  return path.join(SHARED_DIR, ...parts);
}

/** Why the given shared paths cannot be used, or undefined when they all exist (scripts print it and exit 1). */
export function missingShared(...relatives: string[]): string | undefined {
  const missing = relatives.map((relative) => sharedPath(relative)).filter((absolute) => !fs.existsSync(absolute));
  if (missing.length === 0) return undefined;
  return (
    `shared data missing: ${missing.join(', ')} (the corpora and reference data sit beside the checkout ` +
    'as ../shared; set AUDIT_SHARED_DIR to use another copy)'
  );
}

/**
 * Test options for a suite that reads the shared folder: `{ skip: message }` when it is missing,
 * `{}` when present. In CI (`CI=true`) a missing folder throws instead, so the file fails loudly.
 */
export function sharedSuite(...relatives: string[]): { skip?: string } {
  const problem = missingShared(...relatives);
  if (problem === undefined) return {};
  if (inCi) throw new Error(`CI=true but the shared folder is incomplete: ${problem}`);
  return { skip: problem };
}

