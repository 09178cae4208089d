// The axe-core side of `bench/axe-compare.ts`, in a worker thread so that a page that stalls axe
// (its work is synchronous between microtasks, so a timer in the same thread could never fire) is
// ended by terminating the worker. One page at a time, as the anchor was measured: a new
// jsdom window from the page (no scripts, no sub-resources), `axe.run` with its default rules and
// result detail, the window closed. The only options set keep the network out (below).
//
// Bench only: axe-core and jsdom are dev dependencies, and nothing under src/ imports them.
import { performance } from 'node:perf_hooks';
import { parentPort } from 'node:worker_threads';
import axe from 'axe-core';
import { JSDOM, VirtualConsole } from 'jsdom';

/**
 * How axe runs. `default`: its default rules and result detail, the anchor. `quick`: only
 * the WCAG 2.0/2.1 A and AA rules and violations only (`resultTypes`), about twice as fast: for a
 * quicker agreement table, never for the speed ratio.
 */
export type AxeMode = 'default' | 'quick';

export type AxeRequest =
  /** The rules the mode runs, with their tags: what axe can report at all. */
  | { kind: 'rules'; mode: AxeMode }
  | { kind: 'page'; html: string; url: string; mode: AxeMode };

export interface AxeRules {
  version: string;
  rules: { id: string; tags: string[] }[];
}

/** WCAG 2.0 and 2.1, levels A and AA: the `quick` mode's rules, comparable with the WCAG21AA standard. */
export const QUICK_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export type AxeReply =
  | {
      ok: true;
      /** Building the jsdom window: parse, DOM and CSSOM of the inline `<style>` sheets. */
      jsdomMs: number;
      /** `axe.run` alone. */
      axeMs: number;
      violations: { id: string; tags: string[]; nodes: number }[];
      /** Rules axe could not decide on the page (with `resultTypes`, one node each at most). */
      incomplete: string[];
    }
  | { ok: false; error: string };

const port = parentPort;
/**
 * axe's defaults but for two options that would otherwise reach outside the page: `iframes: false`,
 * as frames are not loaded here and axe would wait for each frame to answer (up to its 60 s frame
 * timeout); `preload: false`, as axe would fetch linked style sheets over the network (jsdom's XHR)
 * for its CSSOM. Neither is analysis work our engine does either. The element, not the document, is
 * the context: axe deduces its window from an element's ownerDocument when Node has no globals.
 */
function runOptions(mode: AxeMode): axe.RunOptions {
  const offline: axe.RunOptions = { iframes: false, preload: false };
  if (mode === 'default') return offline;
  return { ...offline, runOnly: { type: 'tag', values: QUICK_TAGS }, resultTypes: ['violations'] };
}

/** The rules a mode really runs: every rule id in any result group of a run on an empty page. */
async function rulesThatRun(mode: AxeMode): Promise<AxeRules['rules']> {
  const dom = new JSDOM('<!doctype html><html lang="en"><title>t</title><body><p>t</p></body></html>', { virtualConsole: new VirtualConsole() });
  try {
    const results = await axe.run(dom.window.document.documentElement, { ...runOptions(mode), resultTypes: undefined });
    const ran = new Set([...results.passes, ...results.violations, ...results.incomplete, ...results.inapplicable].map((r) => r.id));
    return axe.getRules().flatMap((rule) => (ran.has(rule.ruleId) ? [{ id: rule.ruleId, tags: rule.tags }] : []));
  } finally {
    dom.window.close();
  }
}

if (port) {
  port.on('message', async (request: AxeRequest) => {
    if (request.kind === 'rules') {
      port.postMessage({ version: axe.version, rules: await rulesThatRun(request.mode) } satisfies AxeRules);
      return;
    }
    const { html, url, mode } = request;
    let dom: JSDOM | undefined;
    let reply: AxeReply;
    try {
      const start = performance.now();
      // An empty virtual console: jsdom's CSS parse errors would otherwise flood stderr.
      dom = new JSDOM(html, { url, contentType: 'text/html', virtualConsole: new VirtualConsole() });
      const built = performance.now();
      const results = await axe.run(dom.window.document.documentElement, runOptions(mode));
      const done = performance.now();
      reply = {
        ok: true,
        jsdomMs: built - start,
        axeMs: done - built,
        violations: results.violations.map((v) => ({ id: v.id, tags: v.tags, nodes: v.nodes.length })),
        incomplete: results.incomplete.map((r) => r.id),
      };
    } catch (error) {
      reply = { ok: false, error: error instanceof Error ? error.message : String(error) };
    } finally {
      dom?.window.close(); // frees the window's document and timers: memory stays bounded per page
    }
    port.postMessage(reply);
  });
}
