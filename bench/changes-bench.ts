// 6. What changed between two audits (issue 19), for npm run bench: GET /api/v1/audits/{id}/changes
// on audits with 50 occurrences in each of 25 criteria (1,250 per audit, the most a WCAG audit
// lists for that many criteria), 30 audits per page, through the real app on a database of its
// own, interleaved with GET /api/v1/audits/{id} of the same audit as the in-run baseline. Goal:
// the changes endpoint's p50 under 20 ms.
import { performance } from 'node:perf_hooks';
import { buildApp } from '../src/app.ts';
import { saveAudit, type NewAudit } from '../src/audit/audit-store.ts';
import { totalsOf, type Finding } from '../src/audit/findings.ts';
import { CRITERIA } from '../src/audit/wcag/criteria.ts';
import { createApiKey } from '../src/auth/api-keys.ts';
import { loadConfig } from '../src/config.ts';
import type { DatabaseHandle } from '../src/db/connect.ts';
import { createAddressPolicy } from '../src/net/address-policy.ts';
import { createSafeFetcher } from '../src/net/safe-fetch.ts';
import { stubCrawl } from '../test/support/audits.ts';

const CRITERIA_COUNT = 25;
const AUDITS_PER_PAGE = 30;
const ROUNDS = 200;

/** 25 criteria × 50 occurrences; two occurrences per criterion change with `variant`. */
function findings(variant: number): Finding[] {
  return CRITERIA.slice(0, CRITERIA_COUNT).map((row, c) => ({
    control: row.num,
    status: 'fail',
    severity: c % 5 === 4 ? 'warning' : 'error',
    evidence: `${row.num}: 60 failed (rule-${c} 60)`,
    occurrences: Array.from({ length: 50 }, (_, i) => {
      const n = i < 2 ? 1000 + variant * 2 + i : i;
      return {
        rule: `rule-${c}`,
        selector: `html > body > main > section:nth-of-type(${c + 1}) > div:nth-of-type(${n + 1}) > img`,
        snippet: `<img src="/static/products/${n}/thumbnail.jpg?v=${variant}" class="product-thumb" loading="lazy" width="120" height="90">`,
      };
    }),
    rules: [`rule-${c}`],
    actRules: ['23a2a8'],
    source: 'rules',
  }));
}

export interface ChangesBench {
  database: string;
  occurrencesPerAudit: number;
  readBackP50: number;
  unchangedP50: number;
  changedP50: number;
  meetsGoal: boolean;
}

export async function benchChanges(openDatabase: () => Promise<DatabaseHandle>, databaseKind: string): Promise<ChangesBench> {
  const database = await openDatabase();
  const config = loadConfig({ LOG_LEVEL: 'warn' });
  const fetcher = createSafeFetcher({ policy: createAddressPolicy([]), staticResolve: new Map() });
  const app = await buildApp({ config, db: database.db, fetcher, delivery: { enabled: false }, monitors: { enabled: false } });
  const key = await createApiKey(database.db, 'bench-changes');
  const audit = (url: string, variant: number): NewAudit => {
    const list = findings(variant);
    return { apiKeyId: key.id, url: new URL(url), branch: 'wcag', standard: 'WCAG21AA', includeWarnings: true, crawled: stubCrawl(url), result: { controls: [], findings: list, totals: totalsOf(list) } };
  };
  // One page changes at every audit (new, fixed and regressed occurrences), the other never does.
  let changed = '';
  let unchanged = '';
  for (let v = 0; v < AUDITS_PER_PAGE; v++) {
    changed = (await saveAudit(database.db, audit('https://shop.example/a', v % 3))).id;
    unchanged = (await saveAudit(database.db, audit('https://shop.example/b', 0))).id;
  }
  const get = (url: string) => async () => {
    const response = await app.inject({ method: 'GET', url, headers: { 'x-api-key': key.rawKey } });
    if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode}`);
  };
  const runs = { readBack: get(`/api/v1/audits/${changed}`), unchanged: get(`/api/v1/audits/${unchanged}/changes`), changed: get(`/api/v1/audits/${changed}/changes`) };
  const samples: Record<keyof typeof runs, number[]> = { readBack: [], unchanged: [], changed: [] };
  for (let round = 0; round < 20 + ROUNDS; round++) {
    for (const [name, run] of Object.entries(runs) as [keyof typeof runs, () => Promise<void>][]) {
      const start = performance.now();
      await run();
      if (round >= 20) samples[name].push(performance.now() - start);
    }
  }
  await app.close();
  await fetcher.close();
  await database.close();
  const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const result = { readBackP50: p50(samples.readBack), unchangedP50: p50(samples.unchanged), changedP50: p50(samples.changed) };
  return { database: databaseKind, occurrencesPerAudit: CRITERIA_COUNT * 50, ...result, meetsGoal: Math.max(result.unchangedP50, result.changedP50) < 20 };
}
