// The axe-core side of `bench/axe-compare.ts`, in a worker thread so that a page that stalls axe
// (its work is synchronous between microtasks, so a timer in the same thread could never fire) is
// ended by terminating the worker. One page at a time: build a jsdom window from the page (no
// scripts, no sub-resources), run axe-core's WCAG 2.0/2.1 A and AA rules on it, close the window.
//
// Bench only: axe-core and jsdom are dev dependencies, and nothing under src/ imports them.
import { performance } from 'node:perf_hooks';
import { parentPort } from 'node:worker_threads';
import axe from 'axe-core';
import { JSDOM, VirtualConsole } from 'jsdom';

export type AxeRequest =
  /** The rules the tags select, with their tags: what axe can report at all. */
  | { kind: 'rules'; tags: string[] }
  /** One page. `tags` select axe-core's rules (experimental rules stay off). */
  | { kind: 'page'; html: string; url: string; tags: string[]; allResults: boolean };

export interface AxeRules {
  version: string;
  rules: { id: string; tags: string[] }[];
}

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
if (port) {
  port.on('message', async (request: AxeRequest) => {
    if (request.kind === 'rules') {
      const rules = axe.getRules(request.tags).map((rule) => ({ id: rule.ruleId, tags: rule.tags }));
      port.postMessage({ version: axe.version, rules } satisfies AxeRules);
      return;
    }
    const { html, url, tags, allResults } = request;
    let dom: JSDOM | undefined;
    let reply: AxeReply;
    try {
      const start = performance.now();
      // An empty virtual console: jsdom's CSS parse errors would otherwise flood stderr.
      dom = new JSDOM(html, { url, contentType: 'text/html', virtualConsole: new VirtualConsole() });
      const built = performance.now();
      // The element, not the document: axe-core deduces its window and document from an element's
      // ownerDocument when Node has no globals. iframes: false, as frames are not loaded here (and
      // axe would wait for each frame to answer); preload: false, as axe would fetch linked style
      // sheets over the network (jsdom's XHR) for its CSSOM; resultTypes: only violations carry
      // every node (allResults: axe's default, every node of every result type).
      const results = await axe.run(dom.window.document.documentElement, {
        runOnly: { type: 'tag', values: tags },
        ...(allResults ? {} : { resultTypes: ['violations'] as axe.resultGroups[] }),
        iframes: false,
        preload: false,
      });
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
