// A page whose analysis outlasts any budget the pool tests set. Every real page is bounded now (the
// WCAG cascade's budget of selector matches, src/audit/wcag/styles.ts, measured on the crafted pages
// in test/audit/wcag/cascade-bounds.test.ts), so the pool's limits are tested with a task that
// never ends: the threads run `SPINNING_WORKER`, which is the real entry (worker.ts) except that a
// page carrying `SLOW_MARKER` spins until its thread is stopped. Any other page is analysed as usual.
export const SLOW_MARKER = '<!-- test: analysis never ends -->';

/** A page whose task fails with `priority N`, N the analysis thread's nice value. */
export const PRIORITY_MARKER = '<!-- test: report the thread priority -->';

/** For AnalysisPoolOptions.workerFile and the test service's analysisWorkerFile. */
export const SPINNING_WORKER = new URL('./spinning-analysis-worker.ts', import.meta.url).href;

export function slowPage(): string {
  return `<!doctype html><html lang="en"><head><title>Slow</title></head><body>${SLOW_MARKER}<p>x</p></body></html>`;
}
