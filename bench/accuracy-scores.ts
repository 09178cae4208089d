// The metrics every accuracy run prints: a confusion matrix per control (expected × actual),
// precision and recall for `fail` (the outcome that raises alerts) and for `pass`, and accuracy.
import type { OutcomeStatus } from '../src/audit/control.ts';

export const OUTCOMES: readonly OutcomeStatus[] = ['pass', 'fail', 'inconclusive'];

/** matrix[expected][actual] */
export type Matrix = Record<OutcomeStatus, Record<OutcomeStatus, number>>;

export interface Scores {
  n: number;
  matrix: Matrix;
  failPrecision: number | null;
  failRecall: number | null;
  passPrecision: number | null;
  passRecall: number | null;
  accuracy: number | null;
}

export function emptyMatrix(): Matrix {
  const row = () => ({ pass: 0, fail: 0, inconclusive: 0 });
  return { pass: row(), fail: row(), inconclusive: row() };
}

const ratio = (num: number, den: number): number | null => (den === 0 ? null : num / den);

export function score(matrix: Matrix): Scores {
  let n = 0;
  let correct = 0;
  for (const e of OUTCOMES) for (const a of OUTCOMES) {
    n += matrix[e][a];
    if (e === a) correct += matrix[e][a];
  }
  const predicted = (o: OutcomeStatus) => OUTCOMES.reduce((s, e) => s + matrix[e][o], 0);
  const labelled = (o: OutcomeStatus) => OUTCOMES.reduce((s, a) => s + matrix[o][a], 0);
  return {
    n,
    matrix,
    failPrecision: ratio(matrix.fail.fail, predicted('fail')),
    failRecall: ratio(matrix.fail.fail, labelled('fail')),
    passPrecision: ratio(matrix.pass.pass, predicted('pass')),
    passRecall: ratio(matrix.pass.pass, labelled('pass')),
    accuracy: ratio(correct, n),
  };
}

export const pct = (v: number | null): string => (v === null ? '   n/a' : `${(v * 100).toFixed(1).padStart(5)}%`);
const SHORT: Record<OutcomeStatus, string> = { pass: 'pass', fail: 'fail', inconclusive: 'incon' };

export function printScores(title: string, s: Scores): void {
  console.log(`\n${title}  (n=${s.n})`);
  console.log(`  expected \\ actual   ${OUTCOMES.map((o) => SHORT[o].padStart(6)).join('')}`);
  for (const e of OUTCOMES) {
    console.log(`  ${e.padEnd(19)}${OUTCOMES.map((a) => String(s.matrix[e][a]).padStart(6)).join('')}`);
  }
  console.log(
    `  fail: precision ${pct(s.failPrecision)}  recall ${pct(s.failRecall)}   ` +
      `pass: precision ${pct(s.passPrecision)}  recall ${pct(s.passRecall)}   accuracy ${pct(s.accuracy)}`,
  );
}
