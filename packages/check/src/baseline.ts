// Baselines: the failures known so far, per page and branch, by their stable identity
// (src/audit/identity.ts). `--write-baseline FILE` writes a run's; `--baseline FILE` reads one so
// that `--fail-on new` fails only on what it lacks. The file is meant to be committed: pages
// sorted by URL then branch, identities sorted, occurrences sorted by identity, two-space JSON,
// one field per line, so a change shows as a small diff.
//
//   {"version": 1, "server": "https://audit.example.com", "createdAt": "…",
//    "pages": [{"url": "https://…/", "branch": "wcag", "identities": ["…"],
//               "occurrences": [{"identity", "control", "rule", "selector", "snippet", "severity"}]}]}
//
// Only `version`, `pages[].url`, `.branch` and `.identities` are read back; the occurrences are
// there for the person reading the diff. Pages the run could not audit are left out (and said so).
import { readFile } from 'node:fs/promises';
import { UsageError } from './args.ts';
import type { Branch, RunResult } from './model.ts';

export const BASELINE_VERSION = 1;

export interface BaselineOccurrence {
  identity: string;
  control: string;
  rule: string | null;
  selector: string | null;
  snippet: string | null;
  severity: 'error' | 'warning';
}

export interface BaselinePage {
  url: string;
  branch: Branch;
  identities: string[];
  occurrences: BaselineOccurrence[];
}

export interface BaselineFile {
  version: 1;
  server?: string;
  createdAt: string;
  pages: BaselinePage[];
}

/** The key of a page and branch in a baseline's map: `${branch} ${url}` (RunOptions.baseline). */
export const baselineKey = (branch: string, url: string): string => `${branch} ${url}`;

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const IDENTITY = /^[0-9a-f]{32}$/;
const BRANCHES: readonly string[] = ['wcag', 'privacy', 'ai-governance'];

/** A run's failed occurrences as a baseline, sorted for diffs; pages the run could not audit are left out. */
export function baselineFromRun(run: RunResult, createdAt: string): BaselineFile {
  const pages = new Map<string, BaselinePage>();
  for (const page of run.pages) {
    if (page.audit === undefined) continue;
    const key = baselineKey(page.branch, page.url);
    const entry = pages.get(key) ?? { url: page.url, branch: page.branch, identities: [], occurrences: [] };
    pages.set(key, entry);
    for (const o of page.occurrences) {
      if (entry.identities.includes(o.identity)) continue;
      entry.identities.push(o.identity);
      entry.occurrences.push({ identity: o.identity, control: o.control, rule: o.rule, selector: o.selector, snippet: o.snippet, severity: o.severity });
    }
  }
  const sorted = [...pages.values()]
    .map((p) => ({ ...p, identities: p.identities.sort(compare), occurrences: p.occurrences.sort((a, b) => compare(a.identity, b.identity)) }))
    .sort((a, b) => compare(a.url, b.url) || compare(a.branch, b.branch));
  return { version: BASELINE_VERSION, ...(run.server === '' ? {} : { server: run.server }), createdAt, pages: sorted };
}

/** The file's text: two-space JSON and a final newline. */
export function baselineText(baseline: BaselineFile): string {
  return `${JSON.stringify(baseline, null, 2)}\n`;
}

/** A URL as the run writes it (targets.ts normalises every page with URL), so a hand-edited `https://a.test` still meets `https://a.test/`. */
function normalisedUrl(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

/** A baseline file's identities per `${branch} ${url}`; a UsageError naming what is wrong when it is not one. */
export function parseBaseline(text: string, file: string): Map<string, Set<string>> {
  const bad = (what: string) => new UsageError(`--baseline ${file} is not a baseline file: ${what} (write one with --write-baseline)`);
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw bad(`not JSON (${(error as Error).message})`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw bad('not a JSON object');
  const { version, pages } = data as { version?: unknown; pages?: unknown };
  if (version !== BASELINE_VERSION) throw bad(`version ${JSON.stringify(version) ?? 'missing'}, expected ${BASELINE_VERSION}`);
  if (!Array.isArray(pages)) throw bad('"pages" is not a list');
  const map = new Map<string, Set<string>>();
  pages.forEach((page: unknown, i) => {
    const at = `pages[${i}]`;
    if (typeof page !== 'object' || page === null) throw bad(`${at} is not an object`);
    const { url, branch, identities } = page as { url?: unknown; branch?: unknown; identities?: unknown };
    if (typeof url !== 'string' || url === '') throw bad(`${at}.url is not a string`);
    if (typeof branch !== 'string' || !BRANCHES.includes(branch)) throw bad(`${at}.branch is not one of ${BRANCHES.join(', ')}`);
    if (!Array.isArray(identities)) throw bad(`${at}.identities is not a list`);
    const key = baselineKey(branch, normalisedUrl(url));
    const set = map.get(key) ?? new Set<string>();
    identities.forEach((identity: unknown, j) => {
      if (typeof identity !== 'string' || !IDENTITY.test(identity)) throw bad(`${at}.identities[${j}] is not an identity (32 hex digits)`);
      set.add(identity);
    });
    map.set(key, set);
  });
  return map;
}

/** `--baseline FILE` read and checked: RunOptions.baseline. */
export async function readBaseline(file: string): Promise<{ file: string; identities: Map<string, Set<string>> }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read --baseline ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return { file, identities: parseBaseline(text, file) };
}
