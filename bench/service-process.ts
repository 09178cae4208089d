// The service as users deploy it, for the benches: `node src/main.ts serve` as its own process on a
// free loopback port, with a seed key, trusting the fixture's CA through NODE_EXTRA_CA_CERTS, on a
// fresh embedded database in a temporary directory unless `env` names a DATABASE_URL. Ready when
// /readyz answers 200 (60 s at most).
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';

const root = path.resolve(import.meta.dirname, '..');

export interface ServiceProcess {
  origin: string;
  rawKey: string;
  close(): Promise<void>;
}

/** A free loopback port (the child is told it; a race with another process is possible but harmless in a bench). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * `host` is mapped to 127.0.0.1, where the fixture listens, and loopback is exempt from the address
 * policy on purpose; the rate limit is lifted. `env` adds or overrides settings.
 */
export async function startServiceProcess(caPem: string, host: string, env: Record<string, string> = {}): Promise<ServiceProcess> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-bench-service-'));
  const caFile = path.join(dir, 'ca.pem');
  fs.writeFileSync(caFile, caPem);
  const rawKey = `bench-${randomUUID()}-${randomUUID()}`;
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, 'src/main.ts'), 'serve'], {
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      AUDIT_SEED_API_KEY: rawKey,
      AUDIT_RESOLVE: `${host}=127.0.0.1`,
      AUDIT_ALLOW_PRIVATE_NETWORKS: '127.0.0.0/8',
      AUDIT_ALLOW_PRIVATE_NETWORKS_UNSAFE: 'true',
      AUDIT_RATE_LIMIT: '1000000',
      LOG_LEVEL: 'warn',
      NODE_EXTRA_CA_CERTS: caFile,
      ...(env.DATABASE_URL ? {} : { AUDIT_DATA_DIR: path.join(dir, 'data') }),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The last 20,000 characters of its output, for the error if it never becomes ready.
  let output = '';
  child.stdout.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
  child.stderr.on('data', (chunk) => (output = (output + chunk).slice(-20_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}: ${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGTERM');
      throw new Error(`service did not become ready: ${output}`);
    }
    try {
      const response = await request(`${origin}/readyz`);
      await response.body.text();
      if (response.statusCode === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    origin,
    rawKey,
    async close() {
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
