// What a person watching a run sees on stderr. On a terminal: one line, redrawn in place (at most
// ten times a second), with a bar, pages done of all, and the current wait when the service asked
// the run to pause. Elsewhere (a CI log): one plain line per finished page and branch, and one
// when a wait begins. Every text that came from the network (the service's error text, a URL read
// from a sitemap) goes through `terminalText` before it is printed.
import type { PageResult } from './model.ts';
import { terminalText } from './terminal-text.ts';

/** Why the run pauses: the service's rate limit (429) or its busy analysis queue (503). */
export type WaitReason = 'rate limited' | 'service unavailable';

export interface Progress {
  /** A page through one branch is finished (audited or not). */
  pageDone(page: PageResult): void;
  /** Every worker pauses `seconds` (the shared gate closed). */
  waiting(seconds: number, why: WaitReason): void;
  /** The gate opened again. */
  resumed(): void;
  /** A line that stays (e.g. why the run stopped), printed above the progress line on a terminal. */
  message(text: string): void;
  /** The last redraw and its newline on a terminal; nothing is written after it. */
  finish(): void;
}

export interface ProgressStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

export interface ProgressOptions {
  /** Milliseconds; the countdown of a wait and the redraw throttle read it. Default Date.now. */
  now?: () => number;
}

/** At most one redraw per this many milliseconds (ten a second). */
export const REDRAW_INTERVAL_MS = 100;
const BAR_WIDTH = 20;
const CLEAR_LINE = '\r\u001b[2K';

/** A finished page as one line, without the `[done/total]` prefix: `wcag https://x/: 2 errors, 1 warning`. */
export function describePage(page: PageResult): string {
  const where = `${page.branch} ${terminalText(page.url)}`;
  if (page.notAudited !== undefined) return `${where}: not audited: ${terminalText(page.notAudited.reason)}`;
  const errors = page.occurrences.filter((o) => o.severity === 'error').length;
  const warnings = page.occurrences.length - errors;
  let text = `${where}: ${plural(errors, 'error')}, ${plural(warnings, 'warning')}`;
  if (page.newOccurrences !== undefined) text += `, ${page.newOccurrences.length} new`;
  return text;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

export function createProgress(stream: ProgressStream, total: number, options: ProgressOptions = {}): Progress {
  return stream.isTTY === true ? terminalProgress(stream, total, options.now ?? Date.now) : plainProgress(stream, total);
}

function plainProgress(stream: ProgressStream, total: number): Progress {
  let done = 0;
  return {
    pageDone(page) {
      done++;
      stream.write(`[${done}/${total}] ${describePage(page)}\n`);
    },
    waiting(seconds, why) {
      stream.write(`waiting ${seconds}s (${why})\n`);
    },
    resumed() {},
    message(text) {
      stream.write(`${text}\n`);
    },
    finish() {},
  };
}

function terminalProgress(stream: ProgressStream, total: number, now: () => number): Progress {
  let done = 0;
  let notAudited = 0;
  let wait: { until: number; why: WaitReason } | undefined;
  let lastDraw = -Infinity;
  let pending: ReturnType<typeof setTimeout> | undefined;
  let ticker: ReturnType<typeof setInterval> | undefined;
  let finished = false;

  function line(): string {
    const filled = total === 0 ? BAR_WIDTH : Math.round((done / total) * BAR_WIDTH);
    let text = `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${done}/${total}`;
    if (notAudited > 0) text += `, ${notAudited} not audited`;
    if (wait !== undefined) text += `  waiting ${Math.max(0, Math.ceil((wait.until - now()) / 1000))}s (${wait.why})`;
    const width = Math.max(20, (stream.columns || 80) - 1);
    return text.length > width ? text.slice(0, width) : text;
  }

  function draw(): void {
    if (pending !== undefined) clearTimeout(pending);
    pending = undefined;
    lastDraw = now();
    stream.write(`${CLEAR_LINE}${line()}`);
  }

  function redraw(): void {
    if (finished || pending !== undefined) return;
    const since = now() - lastDraw;
    if (since >= REDRAW_INTERVAL_MS) return draw();
    pending = setTimeout(draw, REDRAW_INTERVAL_MS - since);
    pending.unref();
  }

  function stopTicker(): void {
    if (ticker !== undefined) clearInterval(ticker);
    ticker = undefined;
  }

  draw();
  return {
    pageDone(page) {
      done++;
      if (page.notAudited !== undefined) {
        notAudited++;
        // A page that was not audited stays on screen: the bar alone would not say which or why.
        stream.write(`${CLEAR_LINE}${describePage(page)}\n`);
        lastDraw = -Infinity;
      }
      redraw();
    },
    waiting(seconds, why) {
      wait = { until: now() + seconds * 1000, why };
      stopTicker();
      ticker = setInterval(redraw, 1000);
      ticker.unref();
      if (!finished) draw();
    },
    resumed() {
      wait = undefined;
      stopTicker();
      redraw();
    },
    message(text) {
      stream.write(`${CLEAR_LINE}${text}\n`);
      lastDraw = -Infinity;
      redraw();
    },
    finish() {
      if (finished) return;
      wait = undefined;
      stopTicker();
      draw();
      finished = true;
      stream.write('\n');
    },
  };
}
