// npm run coverage:cookies: how much of the Open Cookie Database's Analytics and Marketing rows
// our own cookie catalogue (src/audit/privacy/knowledge/cookies.json) recognises by name, and how
// many of its Functional / Necessary / Security rows it would wrongly call analytics or marketing.
//
// The database is read at run time from the shared folder's reference/ (Apache-2.0; see
// test/support/shared.ts), or from OCD_CSV; nothing of it is copied into the project. Prints a table and writes bench/results/cookie-coverage.json.
//
// How a row is judged: classifyCookie(name, { domain }) with each host named in the row's Domain
// column (none when it names none, so entries that need their vendor's domain cannot match). A
// row with "Wildcard match" = 1 names a prefix: it counts as covered when the prefix itself or the
// prefix followed by a typical suffix (`ABC123`, `123456`, `_ABC123`, `.1.ab12`) is classified.
import fs from 'node:fs';
import path from 'node:path';
import { COOKIES, classifyCookie, type CookieClassification } from '../src/audit/privacy/knowledge/index.ts';
import { missingShared, sharedPath } from '../test/support/shared.ts';

const root = path.resolve(import.meta.dirname, '..');
const OCD = 'reference/open-cookie-database.csv';
const csvPath = process.env.OCD_CSV ?? sharedPath(OCD);
const missing = process.env.OCD_CSV ? (fs.existsSync(csvPath) ? undefined : `OCD_CSV names ${csvPath}, which does not exist`) : missingShared(OCD);
if (missing) {
  console.error(`coverage:cookies cannot run: ${missing}`);
  process.exit(1);
}
const outPath = path.resolve(root, 'bench/results/cookie-coverage.json');

/** RFC 4180: comma-separated, fields optionally quoted, `""` inside quotes, CRLF or LF rows. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (i < text.length) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else {
        field += ch;
      }
      i++;
      continue;
    }
    if (ch === '"' && field === '') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      if (ch === '\r' && text[i + 1] === '\n') i++;
    } else field += ch;
    i++;
  }
  if (quoted) throw new Error('CSV ends inside a quoted field');
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

interface Row {
  platform: string;
  category: string;
  name: string;
  domain: string;
  wildcard: boolean;
}

function readRows(file: string): Row[] {
  const [header, ...data] = parseCsv(fs.readFileSync(file, 'utf8'));
  if (header === undefined) throw new Error(`${file} is empty`);
  const col = (name: string): number => {
    const i = header.indexOf(name);
    if (i === -1) throw new Error(`${file}: no column "${name}"`);
    return i;
  };
  const c = {
    platform: col('Platform'),
    category: col('Category'),
    name: col('Cookie / Data Key name'),
    domain: col('Domain'),
    wildcard: col('Wildcard match'),
  };
  return data
    .filter((r) => r.length === header.length)
    .map((r) => ({
      platform: (r[c.platform] ?? '').trim(),
      category: (r[c.category] ?? '').trim(),
      name: (r[c.name] ?? '').trim(),
      domain: (r[c.domain] ?? '').trim(),
      wildcard: (r[c.wildcard] ?? '').trim() === '1',
    }))
    .filter((r) => r.name !== '');
}

/** Host names in a Domain cell: `.bing.com (3rd party) or .microsoft.com (3rd party)` → both. */
function hostsIn(cell: string): string[] {
  return [...cell.toLowerCase().matchAll(/(?:[a-z0-9-]+\.)+[a-z]{2,}/g)].map((m) => m[0]);
}

const WILDCARD_SUFFIXES = ['', 'ABC123', '123456', '_ABC123', '.1.ab12'];

function classifyRow(row: Row): CookieClassification | undefined {
  const contexts = hostsIn(row.domain).map((domain) => ({ domain }));
  if (contexts.length === 0) contexts.push({ domain: '' });
  const names = row.wildcard ? WILDCARD_SUFFIXES.map((s) => row.name + s) : [row.name];
  for (const name of names) {
    for (const ctx of contexts) {
      const hit = classifyCookie(name, ctx.domain === '' ? undefined : ctx);
      if (hit !== undefined) return hit;
    }
  }
  return undefined;
}

const pct = (n: number, d: number): string => (d === 0 ? '–' : `${((100 * n) / d).toFixed(1)}%`);
const ratio = (n: number, d: number): number => (d === 0 ? 0 : Math.round((10000 * n) / d) / 10000);

interface Tally {
  rows: number;
  covered: number;
  agree: number;
}

function tally(rows: Row[]): Tally {
  let covered = 0;
  let agree = 0;
  for (const row of rows) {
    const hit = classifyRow(row);
    if (hit === undefined) continue;
    covered++;
    if (hit.category === row.category.toLowerCase()) agree++;
  }
  return { rows: rows.length, covered, agree };
}

const rows = readRows(csvPath);
const tracked = rows.filter((r) => r.category === 'Analytics' || r.category === 'Marketing');
const analytics = tracked.filter((r) => r.category === 'Analytics');
const marketing = tracked.filter((r) => r.category === 'Marketing');
const essential = rows.filter((r) => r.category === 'Functional' || r.category === 'Necessary' || r.category === 'Security');

const overall = tally(tracked);
const byCategory = { analytics: tally(analytics), marketing: tally(marketing) };
// One vendor (Nexx360) contributes ~98 rows that a single pattern covers: show the figure without it.
const withoutNexx = tally(tracked.filter((r) => r.platform !== 'Nexx360'));
// Rows naming no vendor domain: cookies set on the site's own domain, the ones a static audit of
// the page's response and inline scripts can actually meet.
const firstParty = tally(tracked.filter((r) => hostsIn(r.domain).length === 0));
const distinctNames = new Set(tracked.map((r) => r.name));
const distinctCovered = new Set(tracked.filter((r) => classifyRow(r) !== undefined).map((r) => r.name));

const uncoveredByPlatform = new Map<string, number>();
const disagreements: Array<{ name: string; platform: string; theirs: string; ours: string; vendor: string }> = [];
for (const row of tracked) {
  const hit = classifyRow(row);
  if (hit === undefined) uncoveredByPlatform.set(row.platform, (uncoveredByPlatform.get(row.platform) ?? 0) + 1);
  else if (hit.category !== row.category.toLowerCase()) {
    disagreements.push({ name: row.name, platform: row.platform, theirs: row.category, ours: hit.category, vendor: hit.vendor });
  }
}
const topUncovered = [...uncoveredByPlatform.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 25);

const falsePositives = essential
  .map((row) => ({ row, hit: classifyRow(row) }))
  .filter((x): x is { row: Row; hit: CookieClassification } => x.hit !== undefined)
  .map(({ row, hit }) => ({ name: row.name, platform: row.platform, theirs: row.category, domain: row.domain, ours: hit.category, vendor: hit.vendor, matched: hit.matched }));

console.log(`Open Cookie Database: ${rows.length} rows (${csvPath})`);
console.log(`Our catalogue: ${COOKIES.length} entries\n`);
console.table({
  'Analytics + Marketing': { rows: overall.rows, covered: overall.covered, coverage: pct(overall.covered, overall.rows), 'category agrees': pct(overall.agree, overall.covered) },
  Analytics: { rows: byCategory.analytics.rows, covered: byCategory.analytics.covered, coverage: pct(byCategory.analytics.covered, byCategory.analytics.rows), 'category agrees': pct(byCategory.analytics.agree, byCategory.analytics.covered) },
  Marketing: { rows: byCategory.marketing.rows, covered: byCategory.marketing.covered, coverage: pct(byCategory.marketing.covered, byCategory.marketing.rows), 'category agrees': pct(byCategory.marketing.agree, byCategory.marketing.covered) },
  'A + M without Nexx360': { rows: withoutNexx.rows, covered: withoutNexx.covered, coverage: pct(withoutNexx.covered, withoutNexx.rows), 'category agrees': pct(withoutNexx.agree, withoutNexx.covered) },
  'A + M, no vendor domain': { rows: firstParty.rows, covered: firstParty.covered, coverage: pct(firstParty.covered, firstParty.rows), 'category agrees': pct(firstParty.agree, firstParty.covered) },
  'A + M distinct names': { rows: distinctNames.size, covered: distinctCovered.size, coverage: pct(distinctCovered.size, distinctNames.size), 'category agrees': '' },
});
console.log(`\nFalse positives: ${falsePositives.length} of ${essential.length} Functional/Necessary/Security rows (${pct(falsePositives.length, essential.length)}) classified as analytics/marketing`);
if (falsePositives.length > 0) console.table(falsePositives);
console.log('\nTop uncovered platforms (Analytics + Marketing rows):');
console.table(Object.fromEntries(topUncovered.map(([platform, n]) => [platform, { uncovered: n }])));
console.log(`\nCategory disagreements (${disagreements.length}): ours vs the database's`);
if (disagreements.length > 0) console.table(disagreements);

const result = {
  generatedAt: new Date().toISOString(),
  source: 'Open Cookie Database (Apache-2.0), read at run time; not copied',
  catalogueEntries: COOKIES.length,
  analyticsAndMarketing: { ...overall, coverage: ratio(overall.covered, overall.rows), categoryAgreement: ratio(overall.agree, overall.covered) },
  analytics: { ...byCategory.analytics, coverage: ratio(byCategory.analytics.covered, byCategory.analytics.rows), categoryAgreement: ratio(byCategory.analytics.agree, byCategory.analytics.covered) },
  marketing: { ...byCategory.marketing, coverage: ratio(byCategory.marketing.covered, byCategory.marketing.rows), categoryAgreement: ratio(byCategory.marketing.agree, byCategory.marketing.covered) },
  withoutNexx360: { ...withoutNexx, coverage: ratio(withoutNexx.covered, withoutNexx.rows) },
  noVendorDomain: { ...firstParty, coverage: ratio(firstParty.covered, firstParty.rows) },
  distinctNames: { names: distinctNames.size, covered: distinctCovered.size, coverage: ratio(distinctCovered.size, distinctNames.size) },
  falsePositives: { rows: essential.length, classified: falsePositives.length, rate: ratio(falsePositives.length, essential.length), list: falsePositives },
  topUncoveredPlatforms: topUncovered.map(([platform, uncovered]) => ({ platform, uncovered })),
  categoryDisagreements: disagreements,
};
fs.mkdirSync(path.dirname(outPath), { recursive: true });
fs.writeFileSync(outPath, `${JSON.stringify(result, null, 2)}\n`);
console.log(`\nWrote ${path.relative(root, outPath)}`);
