// `npm start`, the documented way to run the service, stops with the process npm started: a
// SIGTERM (a supervisor, `kill`) or SIGINT sent to npm ends the server too and frees its port.
// npm forwards the signal to its child; without `exec` in the script that child is a shell, which
// dies and leaves the server running with nobody to stop it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '../..');
const EXIT_WITHIN_MS = 10_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(what: string, check: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function portAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`${signal} to the npm start process stops the server and frees its port`, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-npm-start-'));
    const env: NodeJS.ProcessEnv = { ...process.env, AUDIT_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' };
    delete env.DATABASE_URL;
    delete env.AUDIT_SEED_API_KEY;
    const npm = spawn('npm', ['start'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = once(npm, 'exit');
    let output = '';
    let server: { pid: number; port: number } | undefined;
    npm.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
      for (const line of output.split('\n')) {
        const listening = /^\{.*"msg":"Server listening at http:\/\/127\.0\.0\.1:(\d+)"/.exec(line);
        if (listening) server ??= { pid: (JSON.parse(line) as { pid: number }).pid, port: Number(listening[1]) };
      }
    });
    npm.stderr.on('data', (chunk: Buffer) => (output += chunk));
    try {
      await until('the server listening', () => server !== undefined, 60_000);
      const { pid, port } = server!;
      assert.notEqual(pid, npm.pid, 'the server is a process of its own');
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      assert.equal(health.status, 200);

      npm.kill(signal);
      await until('npm exiting', () => npm.exitCode !== null || npm.signalCode !== null, EXIT_WITHIN_MS);
      await until('the server exiting', () => !alive(pid), EXIT_WITHIN_MS);
      assert.equal(await portAccepts(port), false, 'the port is free');
      assert.match(output, new RegExp(`"signal":"${signal}","msg":"shutting down"`), 'the server shut down in order');
    } finally {
      // A failed run must not leave a server behind: end the one this test started, by its pid.
      if (server && alive(server.pid)) process.kill(server.pid, 'SIGKILL');
      if (npm.exitCode === null && npm.signalCode === null) npm.kill('SIGKILL');
      await exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
}
