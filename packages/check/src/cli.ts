#!/usr/bin/env node
// `check [options] [URL...]`: audits pages through a running audit service from CI and exits 0
// (nothing over the threshold), 1 (failures over it), 2 (a usage mistake) or 3 (the service or a
// target could not be audited). main() is the whole command, with its streams, environment and
// network injectable for tests; run as a program, it reads process.argv and process.env.
import { randomBytes } from 'node:crypto';
import { readFileSync, realpathSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, USAGE, UsageError } from './args.ts';
import { baselineFromRun, baselineText, readBaseline } from './baseline.ts';
import { jsonReport } from './json-report.ts';
import { junitReport } from './junit.ts';
import { EXIT } from './model.ts';
import type { RunIO, RunOptions, RunResult } from './model.ts';
import { runCheck } from './run.ts';
import { sarifReport } from './sarif.ts';
import { summaryText } from './summary.ts';
import { terminalText } from './terminal-text.ts';
import { resolveTargets, SitemapUnreachable } from './targets.ts';

export interface CliIO extends RunIO {
  stdout: { write(text: string): unknown };
  /** Injectable for tests: runCheck by default. */
  run?: (options: RunOptions, io: RunIO) => Promise<RunResult>;
}

/** The client's version, from its package.json (found above this file, in the source tree or as installed). */
export function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === '@audit-service/check' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // not here: one level up
    }
    dir = dirname(dir);
  }
  return '0.0.0';
}

/** Replaces `file` whole or not at all: a temporary file beside it, then a rename. Parent folders are created. */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temp = join(dirname(file), `.${randomBytes(6).toString('hex')}.check.tmp`);
  try {
    await writeFile(temp, text, { encoding: 'utf8', flag: 'wx' });
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => {});
    throw error;
  }
}

const line = (text: string) => `check: ${terminalText(text)}\n`;

/** The whole command; resolves to the exit code. */
export async function main(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, io: CliIO): Promise<number> {
  const usageError = (error: UsageError) => {
    io.stderr.write(line(error.message));
    io.stderr.write('Run check --help for usage.\n');
    return EXIT.usage;
  };

  let options: RunOptions;
  let files: { json?: string; junit?: string; sarif?: string; writeBaseline?: string };
  try {
    const parsed = parseArgs(argv, env);
    if (parsed.kind === 'help') {
      io.stdout.write(USAGE);
      return EXIT.ok;
    }
    if (parsed.kind === 'version') {
      io.stdout.write(`${packageVersion()}\n`);
      return EXIT.ok;
    }
    const cli = parsed.options;
    const targetIO = { stderr: io.stderr, ...(io.fetch === undefined ? {} : { fetch: io.fetch }) };
    const urls = await resolveTargets(cli, targetIO);
    options = {
      server: cli.server,
      apiKey: cli.apiKey,
      urls,
      branches: cli.branches,
      includeWarnings: cli.includeWarnings,
      concurrency: cli.concurrency,
      failOn: cli.failOn,
    };
    if (cli.standard !== undefined) options.standard = cli.standard;
    if (cli.baseline !== undefined) options.baseline = await readBaseline(cli.baseline);
    files = { ...cli };
  } catch (error) {
    if (error instanceof UsageError) return usageError(error);
    if (error instanceof SitemapUnreachable) {
      io.stderr.write(line(error.message));
      return EXIT.notAudited;
    }
    throw error;
  }

  let run: RunResult;
  try {
    run = await (io.run ?? runCheck)(options, io);
  } catch (error) {
    io.stderr.write(line(`the run failed: ${error instanceof Error ? error.message : String(error)}`));
    return EXIT.notAudited;
  }

  io.stdout.write(summaryText(run));

  let exitCode: number = run.exitCode;
  const outputs: [option: string, file: string | undefined, text: () => string][] = [
    ['--json', files.json, () => jsonReport(run)],
    ['--junit', files.junit, () => junitReport(run)],
    ['--sarif', files.sarif, () => sarifReport(run, packageVersion())],
    ['--write-baseline', files.writeBaseline, () => baselineText(baselineFromRun(run, (io.now?.() ?? new Date()).toISOString()))],
  ];
  for (const [option, file, text] of outputs) {
    if (file === undefined) continue;
    try {
      await writeFileAtomic(file, text());
    } catch (error) {
      const why = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
      io.stderr.write(line(`cannot write ${option} ${file}: ${why}`));
      exitCode = EXIT.usage;
    }
  }
  if (files.writeBaseline !== undefined) {
    const missing = run.pages.filter((p) => p.audit === undefined);
    if (missing.length > 0) {
      io.stderr.write(line(`--write-baseline ${files.writeBaseline} leaves out ${missing.length} page audit(s) that could not be made:`));
      for (const p of missing) io.stderr.write(`  ${terminalText(p.url)} [${p.branch}]\n`);
    }
  }
  return exitCode;
}

/** True when this file is the program node was started with (directly or through the npm bin link). */
function invokedDirectly(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (invokedDirectly()) {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  main(process.argv.slice(2), process.env, { stdout: process.stdout, stderr: process.stderr }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(line(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`));
      process.exitCode = EXIT.notAudited;
    },
  );
}
