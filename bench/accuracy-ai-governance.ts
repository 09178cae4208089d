// The AI-governance branch against its independently labelled sets
// (test/fixtures/ai-governance/accuracy/<set>/: pages/ and labels*.json; see the README there).
// Every page runs end to end through the real pieces: a local HTTPS fixture, the safe fetcher,
// the crawl (charset detection included), then the branch's analysis.
//
//   npm run accuracy -- --branch ai-governance             the development set
//   npm run accuracy -- --branch ai-governance --set test  a held-out set (test, test2; see the README there)
//   npm run accuracy -- --branch ai-governance --set all   every set, then one table: each set per language and per control
//   … -- --branch ai-governance hiring de-                 only pages whose name contains a word
//
// Prints per control and overall the confusion matrix, precision and recall for fail and pass,
// accuracy, the share of fail labels answered pass, then every mismatch with its evidence.
import fs from 'node:fs';
import path from 'node:path';
import { AI_GOVERNANCE_CONTROL_IDS, type AiGovernanceControlId } from '../src/audit/ai-governance/index.ts';
import { branchAnalyses } from '../src/audit/branches.ts';
import type { OutcomeStatus } from '../src/audit/control.ts';
import { crawl, type CrawlLimits } from '../src/audit/crawl.ts';
import { createAddressPolicy, parseCidrList } from '../src/net/address-policy.ts';
import { createSafeFetcher } from '../src/net/safe-fetch.ts';
import { startHttpsFixture } from '../test/support/https-fixture.ts';
import { makeTestPki } from '../test/support/tls.ts';
import { emptyMatrix, pct, printScores, score, type Matrix, type Scores } from './accuracy-scores.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const SETS_DIR = path.join(ROOT, 'test/fixtures/ai-governance/accuracy');
const HOST = 'site.test';
const LIMITS: CrawlLimits = { timeoutMs: 5000, maxBytes: 2 * 1024 * 1024, maxRedirects: 0 };
const LANGS = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt'];

export interface AiLabel {
  page: string;
  lang: string;
  sector: string;
  expected: Record<AiGovernanceControlId, 'pass' | 'fail'>;
  why?: string | string[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every problem with a set (labels*.json against pages/), or an empty list. */
export function checkAiLabels(raw: readonly unknown[], pageFiles: readonly string[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  raw.forEach((entry, index) => {
    if (!isObject(entry) || typeof entry.page !== 'string') return void problems.push(`entry ${index}: needs a "page" string`);
    const where = entry.page;
    if (seen.has(where)) problems.push(`${where}: labelled twice`);
    seen.add(where);
    if (!pageFiles.includes(where)) problems.push(`${where}: no such file in pages/`);
    if (typeof entry.lang !== 'string' || !LANGS.includes(entry.lang)) problems.push(`${where}: lang must be one of ${LANGS.join(', ')}`);
    if (typeof entry.sector !== 'string' || entry.sector === '') problems.push(`${where}: needs a sector`);
    if (!isObject(entry.expected)) return void problems.push(`${where}: needs an "expected" object`);
    for (const id of AI_GOVERNANCE_CONTROL_IDS) {
      const value = entry.expected[id];
      if (value !== 'pass' && value !== 'fail') problems.push(`${where}: ${id} = ${JSON.stringify(value)} is not pass|fail`);
    }
    for (const key of Object.keys(entry.expected)) {
      if (!(AI_GOVERNANCE_CONTROL_IDS as readonly string[]).includes(key)) problems.push(`${where}: "${key}" is not an AI-governance control id`);
    }
  });
  for (const file of pageFiles) if (!seen.has(file)) problems.push(`${file}: page has no label`);
  return problems;
}

export function loadAiSet(set: string): { dir: string; labels: AiLabel[]; problems: string[] } {
  const dir = path.join(SETS_DIR, set);
  const pagesDir = path.join(dir, 'pages');
  if (!fs.existsSync(pagesDir)) return { dir, labels: [], problems: [`no set at ${path.relative(ROOT, dir)}`] };
  const pageFiles = fs.readdirSync(pagesDir).filter((f) => f.endsWith('.html')).sort();
  const raw: unknown[] = [];
  const problems: string[] = [];
  for (const file of fs.readdirSync(dir).filter((f) => /^labels.*\.json$/.test(f)).sort()) {
    try {
      const parsed: unknown = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
      if (Array.isArray(parsed)) raw.push(...parsed);
      else problems.push(`${file}: must be an array`);
    } catch (err) {
      problems.push(`${file}: ${(err as Error).message}`);
    }
  }
  problems.push(...checkAiLabels(raw, pageFiles));
  return { dir, labels: problems.length === 0 ? (raw as AiLabel[]) : [], problems };
}

type Actual = Record<AiGovernanceControlId, { outcome: OutcomeStatus; evidence: string }>;

/** The sets under test/fixtures/ai-governance/accuracy/, in the order they were written. */
export function aiSetNames(): string[] {
  const order = (name: string) => [/^dev$/, /^test$/, /^test\d+$/, /^multilingual-dev$/, /^multilingual-test\d*$/].findIndex((re) => re.test(name));
  return fs
    .readdirSync(SETS_DIR)
    .filter((name) => fs.existsSync(path.join(SETS_DIR, name, 'pages')))
    .sort((a, b) => order(a) - order(b) || a.localeCompare(b, 'en', { numeric: true }));
}

/** One line of the every-set summary. */
interface SetSummary {
  set: string;
  labels: number;
  accuracy: number | null;
  failAnsweredPass: number | null;
  controls: Record<string, number | null>;
  languages: Record<string, number | null>;
}

/** Every set in turn, then one table of them all: labels right overall, per control and per language, and fail labels answered pass. */
export async function runAllAiAccuracy(filters: readonly string[]): Promise<number> {
  const summaries: SetSummary[] = [];
  let status = 0;
  for (const set of aiSetNames()) {
    const result = await runAiSet(set, filters);
    status = Math.max(status, result.status);
    if (result.summary !== undefined) summaries.push(result.summary);
  }
  const langs = [...new Set(summaries.flatMap((s) => Object.keys(s.languages)))].sort();
  console.log('\n=== AI-governance accuracy, every set: labels right (per control, per language) ===');
  console.table(
    Object.fromEntries(
      summaries.map((s) => [
        s.set,
        {
          labels: s.labels,
          all: pct(s.accuracy).trim(),
          ...Object.fromEntries(AI_GOVERNANCE_CONTROL_IDS.map((id) => [SHORT[id], pct(s.controls[id] ?? null).trim()])),
          ...Object.fromEntries(langs.map((lang) => [lang, s.languages[lang] === undefined ? '' : pct(s.languages[lang]!).trim()])),
          'fail answered pass': pct(s.failAnsweredPass).trim(),
        },
      ]),
    ),
  );
  return status;
}

export async function runAiAccuracy(set: string, filters: readonly string[]): Promise<number> {
  return set === 'all' ? runAllAiAccuracy(filters) : (await runAiSet(set, filters)).status;
}

async function runAiSet(set: string, filters: readonly string[]): Promise<{ status: number; summary?: SetSummary }> {
  const { dir, labels: all, problems } = loadAiSet(set);
  if (problems.length) {
    console.error(`AI-governance ${set} set: ${problems.length} problem(s):`);
    for (const p of problems) console.error(`  - ${p}`);
    return { status: 1 };
  }
  const labels = filters.length ? all.filter((l) => filters.some((f) => l.page.includes(f))) : all;
  const branch = branchAnalyses['ai-governance'];

  const pki = await makeTestPki([HOST]);
  const fixture = await startHttpsFixture((_req, res, recorded) => {
    const file = path.join(dir, 'pages', path.basename(decodeURIComponent(new URL(recorded.path, 'https://x').pathname)));
    if (!fs.existsSync(file)) return res.writeHead(404).end();
    return res.writeHead(200, { 'content-type': 'text/html' }).end(fs.readFileSync(file));
  }, pki);
  const fetcher = createSafeFetcher({
    policy: createAddressPolicy(parseCidrList('127.0.0.0/8')),
    staticResolve: new Map([[HOST, ['127.0.0.1']]]),
    ca: [pki.caPem],
  });

  const perControl = new Map<AiGovernanceControlId, Matrix>(AI_GOVERNANCE_CONTROL_IDS.map((id) => [id, emptyMatrix()]));
  const overall = emptyMatrix();
  // Per language (issue 21): every control's matrix, so a language the lexicon covers thinly shows.
  const perLanguage = new Map<string, Map<AiGovernanceControlId, Matrix>>();
  const mismatches: { page: string; control: AiGovernanceControlId; expected: string; actual: string; evidence: string }[] = [];
  const errors: { page: string; error: string }[] = [];
  try {
    for (const label of labels) {
      let actual: Actual;
      try {
        const crawled = await crawl(fetcher, new URL(fixture.url(HOST, `/${label.page}`)), LIMITS);
        const result = await branch.analyse({ crawled, includeWarnings: true, fetcher, limits: LIMITS, log: { info: () => {} } });
        actual = Object.fromEntries(result.controls.map((c) => [c.control, { outcome: c.outcome, evidence: c.evidence }])) as Actual;
      } catch (err) {
        errors.push({ page: label.page, error: String(err) });
        continue;
      }
      for (const id of AI_GOVERNANCE_CONTROL_IDS) {
        const expected = label.expected[id];
        const { outcome, evidence } = actual[id];
        perControl.get(id)![expected][outcome]++;
        overall[expected][outcome]++;
        let language = perLanguage.get(label.lang);
        if (language === undefined) perLanguage.set(label.lang, (language = new Map(AI_GOVERNANCE_CONTROL_IDS.map((c) => [c, emptyMatrix()]))));
        language.get(id)![expected][outcome]++;
        if (expected !== outcome) mismatches.push({ page: label.page, control: id, expected, actual: outcome, evidence });
      }
    }
  } finally {
    await fetcher.close();
    await fixture.close();
  }

  console.log(`\n=== AI-governance accuracy, ${set} set: ${labels.length} pages, ${errors.length} errored ===`);
  const scores: Record<string, Scores & { failAnsweredPass: number | null }> = {};
  for (const id of AI_GOVERNANCE_CONTROL_IDS) {
    const matrix = perControl.get(id)!;
    scores[id] = { ...score(matrix), failAnsweredPass: failAnsweredPass(matrix) };
    printScores(id, scores[id]);
  }
  const overallScores = { ...score(overall), failAnsweredPass: failAnsweredPass(overall) };
  printScores('OVERALL (all controls)', overallScores);
  console.log(`  fail labels answered pass: ${pct(overallScores.failAnsweredPass)}`);
  console.log('\nper control: accuracy');
  for (const id of AI_GOVERNANCE_CONTROL_IDS) console.log(`  ${id.padEnd(56)} ${pct(scores[id]!.accuracy)}`);

  const languages = languageScores(perLanguage);
  console.log('\nper language: labels right, all controls and each (fail answered pass: share of fail labels answered pass)');
  console.table(
    Object.fromEntries(
      Object.entries(languages).map(([lang, l]) => [
        lang,
        {
          pages: l.pages,
          all: pct(l.accuracy).trim(),
          ...Object.fromEntries(AI_GOVERNANCE_CONTROL_IDS.map((id) => [SHORT[id], pct(l.controls[id]!).trim()])),
          'fail answered pass': pct(l.failAnsweredPass).trim(),
        },
      ]),
    ),
  );

  if (mismatches.length) {
    console.log(`\nMismatches (${mismatches.length}):`);
    for (const m of mismatches) {
      console.log(`  ${m.page}  ${m.control.replace('ai-governance.', '')}\n    expected ${m.expected}, actual ${m.actual}: ${m.evidence.replace(/\s+/g, ' ').slice(0, 240)}`);
    }
  }
  for (const e of errors) console.log(`ERROR ${e.page}: ${e.error}`);
  const file = path.join(ROOT, `bench/results/accuracy-ai-governance-${set}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify({ generatedAt: new Date().toISOString(), set, pages: labels.length, filters, controls: scores, overall: overallScores, languages, mismatches, errors }, null, 2)}\n`);
  console.log(`\nwrote ${path.relative(ROOT, file)}`);
  const summary: SetSummary = {
    set,
    labels: labels.length * AI_GOVERNANCE_CONTROL_IDS.length,
    accuracy: overallScores.accuracy,
    failAnsweredPass: overallScores.failAnsweredPass,
    controls: Object.fromEntries(AI_GOVERNANCE_CONTROL_IDS.map((id) => [id, scores[id]!.accuracy])),
    languages: Object.fromEntries(Object.entries(languages).map(([lang, l]) => [lang, l.accuracy])),
  };
  return { status: errors.length ? 1 : 0, summary };
}

/** The labellers' abbreviations, for the per-language table's columns. */
const SHORT: Record<AiGovernanceControlId, string> = {
  'ai-governance.ai-disclosure-notice': 'AD',
  'ai-governance.model-card-or-system-description': 'MC',
  'ai-governance.training-data-provenance': 'TP',
  'ai-governance.human-oversight-contact': 'HO',
  'ai-governance.model-provider-and-version': 'PV',
  'ai-governance.system-purpose-and-role': 'SP',
  'ai-governance.training-data-categories-and-sources': 'TC',
  'ai-governance.model-governance-artifacts': 'GA',
};

/** Per language: pages, accuracy over every label and per control, and the share of fail labels answered pass. */
function languageScores(perLanguage: ReadonlyMap<string, ReadonlyMap<AiGovernanceControlId, Matrix>>) {
  const out: Record<string, { pages: number; accuracy: number | null; failAnsweredPass: number | null; controls: Record<string, number | null> }> = {};
  for (const [lang, controls] of [...perLanguage].sort(([a], [b]) => a.localeCompare(b))) {
    const all = emptyMatrix();
    for (const matrix of controls.values()) {
      for (const expected of Object.keys(matrix) as (keyof Matrix)[]) for (const actual of Object.keys(matrix[expected]) as (keyof Matrix)[]) all[expected][actual] += matrix[expected][actual];
    }
    const first = controls.values().next().value!;
    const pages = Object.values(first).reduce((n, row) => n + Object.values(row).reduce((a, b) => a + b, 0), 0);
    out[lang] = {
      pages,
      accuracy: score(all).accuracy,
      failAnsweredPass: failAnsweredPass(all),
      controls: Object.fromEntries([...controls].map(([id, matrix]) => [id, score(matrix).accuracy])),
    };
  }
  return out;
}

function failAnsweredPass(matrix: Matrix): number | null {
  const fails = matrix.fail.pass + matrix.fail.fail + matrix.fail.inconclusive;
  return fails === 0 ? null : matrix.fail.pass / fails;
}
