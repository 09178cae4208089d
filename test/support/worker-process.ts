// `node src/main.ts worker` as an operator runs it, for the suites that share PostgreSQL between
// processes (webhook delivery, monitors): started against a fixture host on loopback that trusts
// the test CA, ready once it logs `ready`, stopped with SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const main = path.resolve(import.meta.dirname, '../../src/main.ts');

export type WorkerProcess = ChildProcess & { output: () => string };

export interface WorkerOptions {
  connectionString: string;
  /** Mapped to 127.0.0.1, where the fixtures listen. */
  host: string;
  caFile: string;
  /** The log line that says the process is ready. */
  ready: string;
  env?: Record<string, string>;
  /** Every started process is added here (killed by the suite's `after`) and removed when stopped. */
  children: Set<ChildProcess>;
}

export async function startWorkerProcess(options: WorkerOptions): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [main, 'worker'], {
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: options.connectionString,
      LOG_LEVEL: 'info',
      AUDIT_RESOLVE: `${options.host}=127.0.0.1`,
      AUDIT_ALLOW_PRIVATE_NETWORKS: '127.0.0.0/8',
      // Loopback on purpose: the fixtures listen on 127.0.0.1.
      AUDIT_ALLOW_PRIVATE_NETWORKS_UNSAFE: 'true',
      NODE_EXTRA_CA_CERTS: options.caFile,
      ...options.env,
    },
  });
  options.children.add(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start: ${output}`)), 30_000);
    child.stdout!.on('data', () => {
      if (output.includes(options.ready)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`worker exited with ${code}: ${output}`)));
  });
  return Object.assign(child, { output: () => output });
}

/** SIGTERM, then the exit code once the process has closed. */
export async function stopWorkerProcess(child: ChildProcess, children: Set<ChildProcess>): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  child.kill('SIGTERM');
  const code = await exited;
  children.delete(child);
  return code;
}
