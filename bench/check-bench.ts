// 7. The CI client (issue 20), for npm run bench: `check` over 200 corpus pages served on loopback,
// against the service in its own process, next to the same audits sent by a bare concurrent loop
// at the same concurrency (POST, read the JSON, nothing else). The service keeps the default
// budget of 10 audits a minute; the key used has its own budget of 1,000,000 (`keys create
// --rate-limit`), so the run also shows a per-key budget at work. The client is the packed build
// (packages/check/dist), run as a CI job runs it: its own Node process, a URL file, a JSON report.
// Rounds alternate loop and client; the figure is the median round's client wall time over the
// loop's (goal: under 1.10), with pages per second and the client's peak RSS (VmHWM, read from
// /proc while it runs; on a system without /proc it is reported as unknown).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import { startHttpsFixture } from '../test/support/https-fixture.ts';
import { makeTestPki } from '../test/support/tls.ts';
import { startServiceProcess } from './service-process.ts';

const root = path.resolve(import.meta.dirname, '..');
const HOST = 'bench.test';
const CLIENT = path.join(root, 'packages/check/dist/packages/check/src/cli.js');

export interface CheckBench {
  pages: number;
  concurrency: number;
  rounds: number;
  loopSeconds: number[];
  checkSeconds: number[];
  /** Median round: client wall time ÷ loop wall time. */
  ratio: number;
  loopPagesPerSecond: number;
  checkPagesPerSecond: number;
  checkPeakRssMB: number | null;
}

export async function benchCheck(pages: { html: string }[], options: { pages: number; concurrency: number; rounds: number }): Promise<CheckBench> {
  const count = Math.min(options.pages, pages.length);
  execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(root, 'packages/check/tsconfig.build.json')], { stdio: 'inherit', timeout: 180_000 });
  const pki = await makeTestPki([HOST]);
  const fixture = await startHttpsFixture((req, res) => {
    const index = Number((req.url ?? '/p/0').split('/')[2] ?? 0) % count;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(pages[index]!.html);
  }, pki);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-bench-check-'));
  const dataDir = path.join(dir, 'data');
  const env = { AUDIT_DATA_DIR: dataDir, AUDIT_RATE_LIMIT: '10', LOG_LEVEL: 'warn' };
  const created = execFileSync(process.execPath, [path.join(root, 'src/main.ts'), 'keys', 'create', '--label', 'bench check', '--rate-limit', '1000000'], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  const rawKey = created.trim().split('\n').at(-1)!;
  const service = await startServiceProcess(pki.caPem, HOST, env);
  try {
    // Every round audits new URLs (the query differs) of the same pages: no round reads another's answer.
    const urls = (round: number) => Array.from({ length: count }, (_, i) => fixture.url(HOST, `/p/${i}/r${round}`));
    const loop = async (list: string[]) => {
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: options.concurrency }, async () => {
          while (next < list.length) {
            const url = list[next++]!;
            const response = await request(`${service.origin}/api/v1/audit`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-api-key': rawKey },
              body: JSON.stringify({ url, branch: 'wcag', includeWarnings: false }),
            });
            await response.body.json();
            if (response.statusCode !== 201) throw new Error(`bare loop: ${response.statusCode} for ${url}`);
          }
        }),
      );
      return (performance.now() - started) / 1000;
    };
    const check = async (list: string[], round: number) => {
      const file = path.join(dir, `urls-${round}.txt`);
      fs.writeFileSync(file, `${list.join('\n')}\n`);
      const started = performance.now();
      const child = spawn(
        process.execPath,
        [CLIENT, '--server', service.origin, '--urls-file', file, '--concurrency', String(options.concurrency), '--fail-on', 'none', '--json', path.join(dir, `check-${round}.json`)],
        { env: { PATH: process.env.PATH ?? '', AUDIT_API_KEY: rawKey }, stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
      let peakKB: number | null = null;
      const readPeak = () => {
        try {
          const kb = Number(/VmHWM:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]);
          if (Number.isFinite(kb)) peakKB = Math.max(peakKB ?? 0, kb);
        } catch {
          // exited, or no /proc
        }
      };
      const poll = setInterval(readPeak, 25);
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      clearInterval(poll);
      const seconds = (performance.now() - started) / 1000;
      if (code !== 0) throw new Error(`check exited ${code}: ${stderr}`);
      const report = JSON.parse(fs.readFileSync(path.join(dir, `check-${round}.json`), 'utf8')) as { pages: { audit?: unknown }[] };
      const audited = report.pages.filter((page) => page.audit !== undefined).length;
      if (audited !== list.length) throw new Error(`check audited ${audited} of ${list.length}`);
      return { seconds, peakKB };
    };
    await loop(urls(0).slice(0, 20)); // warm the service
    const loopSeconds: number[] = [];
    const checkSeconds: number[] = [];
    let peakKB: number | null = null;
    for (let round = 1; round <= options.rounds; round++) {
      loopSeconds.push(await loop(urls(round * 2)));
      const result = await check(urls(round * 2 + 1), round);
      checkSeconds.push(result.seconds);
      if (result.peakKB !== null) peakKB = Math.max(peakKB ?? 0, result.peakKB);
    }
    const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
    return {
      pages: count,
      concurrency: options.concurrency,
      rounds: options.rounds,
      loopSeconds,
      checkSeconds,
      ratio: median(checkSeconds.map((s, i) => s / loopSeconds[i]!)),
      loopPagesPerSecond: count / median(loopSeconds),
      checkPagesPerSecond: count / median(checkSeconds),
      checkPeakRssMB: peakKB === null ? null : peakKB / 1024,
    };
  } finally {
    await service.close();
    await fixture.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
