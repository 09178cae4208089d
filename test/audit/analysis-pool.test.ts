// The analysis pool without HTTP: what a thread answers equals what the same task answers in the
// caller's thread (nothing lost to structured clone: the findings do not change), the page-too-deep
// error is recognised after the crossing, and the queue's bound, order and cancellation.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { AnalysisAbandonedError, AnalysisPool, AnalysisQueueFullError, AnalysisTimeoutError } from '../../src/audit/analysis/pool.ts';
import { runTask, type AnalysisTask, type TaskKind, type TaskOf } from '../../src/audit/analysis/tasks.ts';
import { PageTooComplexError } from '../../src/audit/page.ts';
import type { AiJudgementResult } from '../../src/audit/wcag/ai-step/index.ts';
import { PRIORITY_MARKER, slowPage, SPINNING_WORKER } from '../support/slow-page.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures');

/** Every `step`-th HTML fixture under `dir`, sorted: a spread of pages without running all of them twice. */
function pages(dir: string, count: number): { name: string; html: string }[] {
  const files = fs
    .readdirSync(path.join(FIXTURES, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.html'))
    .sort();
  const step = Math.max(1, Math.floor(files.length / count));
  return files.filter((_, i) => i % step === 0).map((name) => ({ name, html: fs.readFileSync(path.join(FIXTURES, dir, name), 'utf8') }));
}

const URL_ = 'https://site.test/page';
const pool = new AnalysisPool({ threads: 2, queue: 8, timeoutMs: 60_000 });
after(() => pool.close());

async function same<K extends TaskKind>(task: TaskOf<K>): Promise<void> {
  assert.deepStrictEqual(await pool.run(task), runTask(task), `${task.kind}`);
}

describe('a thread answers exactly what the caller’s thread does', () => {
  test('wcag, with and without warnings, and both halves of WCAG with the AI step', async () => {
    for (const { name, html } of pages('wcag', 12)) {
      await same({ kind: 'wcag', html, url: URL_, standard: 'WCAG21AA', includeWarnings: true });
      await same({ kind: 'wcag', html, url: URL_, standard: 'WCAG22AA', includeWarnings: false });
      await same({ kind: 'wcag-ai-prepare', html, url: URL_, standard: 'WCAG21AA' });
      const judgement: AiJudgementResult = { findings: [], verdicts: [], judgements: [], calls: 0, asked: [] };
      await same({ kind: 'wcag-ai-finish', html, url: URL_, standard: 'WCAG21AA', includeWarnings: true, judgement, model: 'm' });
      assert.ok(name);
    }
  });

  test('privacy: the link to follow, and the controls after the follow', async () => {
    const responseCookies = [{ url: URL_, header: '_ga=GA1.1.1; Path=/' }];
    for (const { html } of pages('privacy', 12)) {
      const select: TaskOf<'privacy-select'> = { kind: 'privacy-select', html, url: URL_, includeWarnings: true, responseCookies };
      await same(select);
      const step = runTask(select);
      if ('follow' in step) {
        const follow = { outcome: 'reachable' as const, finalUrl: step.follow.href, status: 200, textLength: 100 };
        await same({ kind: 'privacy-finish', html, url: URL_, includeWarnings: true, responseCookies, follow });
      }
    }
  });

  test('ai-governance', async () => {
    for (const { html } of pages('ai-governance', 12)) await same({ kind: 'ai-governance', html, url: URL_, includeWarnings: true });
  });
});

test('a page nested too deep is a PageTooComplexError on the main thread', async () => {
  const html = '<div>'.repeat(3000);
  await assert.rejects(pool.run({ kind: 'wcag', html, url: URL_, standard: 'WCAG21AA', includeWarnings: true }), PageTooComplexError);
});

test('many tasks on one pool add no listener per task (no MaxListenersExceededWarning)', async () => {
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(warning.name);
  process.on('warning', onWarning);
  try {
    for (let i = 0; i < 15; i++) await pool.run({ kind: 'wcag', html: `<title>t</title><p>${i}`, url: URL_, standard: 'WCAG21AA', includeWarnings: true });
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', onWarning);
  }
  assert.deepEqual(warnings.filter((name) => name === 'MaxListenersExceededWarning'), []);
});

describe('scheduling', () => {
  // The main thread carries every audit's I/O and the embedded database; analysis threads yield
  // the CPU to it (worker.ts), and only they: the process's other threads keep their priority.
  test('an analysis thread runs at a lower priority than the main thread, on Linux', { skip: process.platform !== 'linux' && 'per-thread priority is Linux’s' }, async () => {
    const before = os.getPriority(0);
    const one = new AnalysisPool({ threads: 1, queue: 1, timeoutMs: 60_000, workerFile: SPINNING_WORKER });
    try {
      const html = `<!doctype html><title>t</title>${PRIORITY_MARKER}`;
      await assert.rejects(one.run({ kind: 'ai-governance', html, url: URL_, includeWarnings: false }), { message: `priority ${Math.min(19, before + 10)}` });
      assert.equal(os.getPriority(0), before, 'the main thread keeps its priority');
    } finally {
      await one.close();
    }
  });
});

describe('queue, budget and cancellation', () => {
  const slow = (): AnalysisTask & { kind: 'wcag' } => ({ kind: 'wcag', html: slowPage(), url: URL_, standard: 'WCAG21AA', includeWarnings: true });
  const small = { kind: 'wcag' as const, html: '<title>t</title><p>x', url: URL_, standard: 'WCAG21AA' as const, includeWarnings: true };

  test('one thread, a queue of one: the third is refused, a continuation is not; a queued task’s budget starts when it runs', async () => {
    const one = new AnalysisPool({ threads: 1, queue: 1, timeoutMs: 1000, workerFile: SPINNING_WORKER });
    try {
      const first = one.run(slow());
      const second = one.run(small);
      await assert.rejects(one.run(small), AnalysisQueueFullError);
      assert.throws(() => one.assertRoom(), (e: unknown) => e instanceof AnalysisQueueFullError && e.retryAfterSeconds === 1);
      const continuation = one.run(small, { continuation: true });
      await assert.rejects(first, AnalysisTimeoutError);
      // The small task waited about a budget behind the slow one, and still had all of its own.
      assert.equal((await second).ai?.used, false);
      assert.equal((await continuation).ai?.used, false);
      const stats = one.stats();
      assert.equal(stats.timedOut, 1);
      assert.equal(stats.completed, 2);
      assert.equal(stats.refused, 2);
    } finally {
      await one.close();
    }
  });

  test('an aborted signal takes a task out of the queue, or stops its thread; the pool serves the next task', async () => {
    const one = new AnalysisPool({ threads: 1, queue: 4, timeoutMs: 60_000, workerFile: SPINNING_WORKER });
    try {
      const running = new AbortController();
      const queued = new AbortController();
      const first = one.run(slow(), { signal: running.signal });
      const second = one.run(small, { signal: queued.signal });
      queued.abort();
      await assert.rejects(second, (e: unknown) => e instanceof AnalysisAbandonedError && e.stage === 'queued');
      while (one.stats().running === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      running.abort();
      await assert.rejects(first, (e: unknown) => e instanceof AnalysisAbandonedError && e.stage === 'running');
      assert.equal((await one.run(small)).ai?.used, false);
      assert.deepEqual(one.stats().cancelled, { queued: 1, running: 1 });
      assert.equal(one.stats().running, 0);
    } finally {
      await one.close();
    }
  });
});
