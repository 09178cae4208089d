// The geometry of an origin's history chart: errors and warnings per audit, oldest on the left, one
// step per audit. Only numbers come out of here; the template (origin.eta) draws them as inline SVG,
// so the page needs no script and the chart prints.

/** The SVG's user units; the style sheet scales it to the width of its box. */
const CHART = { width: 480, height: 240, left: 40, right: 12, top: 30, bottom: 34 };

export interface ChartPoint {
  x: number;
  y: number;
}

export interface ChartView {
  width: number;
  height: number;
  /** The plot area's edges. */
  plot: { left: number; right: number; top: number; bottom: number };
  /** Horizontal grid lines with their value. */
  ticks: { y: number; label: string }[];
  errors: ChartPoint[];
  warnings: ChartPoint[];
  /** The dates under the first and the last audit (one label when they fall together). */
  xLabels: { x: number; label: string; anchor: 'start' | 'middle' | 'end' }[];
}

/** The smallest "round" step (1, 2 or 5 times a power of ten) that covers `max` in at most `steps` steps. */
function niceStep(max: number, steps: number): number {
  const rough = max / steps;
  const power = 10 ** Math.floor(Math.log10(rough));
  return [1, 2, 5, 10].map((m) => m * power).find((step) => step >= rough)!;
}

/** Rounded to a tenth of a unit: enough for a drawing, and short markup. */
const round = (n: number) => Math.round(n * 10) / 10;

/**
 * `audits` oldest first, each with its totals and the date its label would show. Counts are whole
 * numbers, so the scale steps by whole numbers too (at least 1), from 0 to the first tick at or
 * above the largest count.
 */
export function historyChart(audits: readonly { errors: number; warnings: number; date: string }[]): ChartView {
  const { width, height, left, right, top, bottom } = CHART;
  const plot = { left, right: width - right, top, bottom: height - bottom };
  const largest = Math.max(1, ...audits.flatMap((audit) => [audit.errors, audit.warnings]));
  const step = Math.max(1, niceStep(largest, 4));
  const max = Math.ceil(largest / step) * step;
  const y = (value: number) => round(plot.bottom - (value / max) * (plot.bottom - plot.top));
  // One audit sits in the middle; more spread from edge to edge.
  const x = (index: number) =>
    round(audits.length === 1 ? (plot.left + plot.right) / 2 : plot.left + (index * (plot.right - plot.left)) / (audits.length - 1));
  const ticks = [];
  for (let value = 0; value <= max; value += step) ticks.push({ y: y(value), label: String(value) });
  const first = audits[0];
  const last = audits.at(-1);
  const xLabels: ChartView['xLabels'] =
    !first || !last ? [] : audits.length === 1 || first.date === last.date
      ? [{ x: x(audits.length === 1 ? 0 : (audits.length - 1) / 2), label: first.date, anchor: 'middle' }]
      : [
          { x: x(0), label: first.date, anchor: 'start' },
          { x: x(audits.length - 1), label: last.date, anchor: 'end' },
        ];
  return {
    width,
    height,
    plot,
    ticks,
    errors: audits.map((audit, index) => ({ x: x(index), y: y(audit.errors) })),
    warnings: audits.map((audit, index) => ({ x: x(index), y: y(audit.warnings) })),
    xLabels,
  };
}
