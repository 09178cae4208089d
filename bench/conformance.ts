// npm run conformance: the WCAG engine on every static W3C ACT test case (../shared), scored per
// ACT rule as the W3C implementation reports do (see conformance-score.ts). Prints the counts,
// the ACT rules not implemented and the criterion-level score, and writes
// bench/results/conformance.json.
import fs from 'node:fs';
import path from 'node:path';
import { missingShared, sharedPath } from '../test/support/shared.ts';
import { scoreConformance } from './conformance-score.ts';

const problem = missingShared('corpus/act-rules/manifest.json');
if (problem !== undefined) {
  console.error(problem);
  process.exit(1);
}

const started = performance.now();
const report = scoreConformance(sharedPath('corpus/act-rules'));
const seconds = (performance.now() - started) / 1000;

console.log(`ACT conformance: ${report.cases} static test cases in ${seconds.toFixed(1)} s\n`);
console.log('ACT rule  score         cases  ok  missed  cantTell  falseFail  passedFail  engine rules');
for (const [ruleId, r] of Object.entries(report.rules).sort((a, b) => a[1].score.localeCompare(b[1].score) || b[1].cases - a[1].cases)) {
  const v = r.verdicts;
  console.log(
    `${ruleId.padEnd(9)} ${r.score.padEnd(13)} ${String(r.cases).padStart(5)} ${String(v.ok).padStart(3)} ${String(v.missed).padStart(7)} ${String(v.cantTell).padStart(9)} ${String(v.falseFail).padStart(10)} ${String(v.reportedPassing).padStart(11)}  ${r.engineRules.join(', ')}`,
  );
}
console.log(`\nconsistent ${report.counts.consistent} · partial ${report.counts.partial} · inconsistent ${report.counts.inconsistent}`);
console.log(`\nNot implemented (${report.notImplemented.length} ACT rules, by static case count):`);
console.log(report.notImplemented.map((r) => `  ${r.ruleId} ${r.name} (${r.cases})`).join('\n'));
console.log('\nCriterion level (a case counts when the audit fails one of its criteria: an error; + a warning only, from a rule whose ACT rule maps to no criterion):');
console.log('criterion  failed cases detected   passed/inapplicable cases flagged');
for (const [sc, c] of Object.entries(report.criteria).sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))) {
  const warned = c.warned > 0 ? ` +${c.warned}` : '';
  const flaggedWarning = c.flaggedWarning > 0 ? ` +${c.flaggedWarning}` : '';
  console.log(`${sc.padEnd(10)} ${`${c.detected}/${c.failedCases}${warned}`.padStart(21)}   ${`${c.flagged}/${c.passedCases}${flaggedWarning}`.padStart(33)}`);
}
if (process.argv.includes('--problems')) {
  console.log('\nProblems:');
  for (const p of report.problems) console.log(`  ${p.ruleId} ${p.verdict.padEnd(15)} ${p.title} [${p.got.join(',')}] ${p.testcaseId}`);
}
const out = path.join(import.meta.dirname, 'results', 'conformance.json');
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, `${JSON.stringify(report, null, 1)}\n`);
console.log(`\nwrote ${path.relative(process.cwd(), out)}`);
