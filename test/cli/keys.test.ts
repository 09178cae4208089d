// The key-management CLI as an operator runs it: a real process on a real embedded database.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { lockDataDir } from '../../src/db/dir-lock.ts';

const main = path.resolve(import.meta.dirname, '../../src/main.ts');

function cli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [main, ...args], {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

test('keys create, list and revoke on the embedded database', async () => {
  const env = { AUDIT_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'audit-cli-')) };

  const created = await cli(['keys', 'create', '--label', 'ci pipeline'], env);
  assert.equal(created.code, 0, created.stderr);
  const lines = created.stdout.trimEnd().split('\n');
  const rawKey = lines.at(-1)!;
  assert.match(rawKey, /^ask_[A-Za-z0-9_-]{43}$/, 'the raw key is alone on the last line');
  const id = /Created API key ([0-9a-f-]{36})/.exec(created.stdout)?.[1];
  assert.ok(id);

  const listed = await cli(['keys', 'list'], env);
  assert.equal(listed.code, 0, listed.stderr);
  const row = listed.stdout.split('\n').find((line) => line.startsWith(id));
  assert.ok(row, listed.stdout);
  assert.ok(row.includes(rawKey.slice(0, 8)), 'shows a short prefix');
  assert.equal(listed.stdout.includes(rawKey), false, 'never the raw key');
  assert.match(row, /\t-\tci pipeline$/, 'not revoked yet');

  const revoked = await cli(['keys', 'revoke', id], env);
  assert.equal(revoked.code, 0, revoked.stderr);
  assert.match(revoked.stdout, /Revoked/);
  const relisted = await cli(['keys', 'list'], env);
  assert.match(relisted.stdout.split('\n').find((line) => line.startsWith(id))!, /\t\d{4}-\d\d-\d\dT[^\t]+\tci pipeline$/);

  const unknown = await cli(['keys', 'revoke', '00000000-0000-4000-8000-000000000000'], env);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /No key with id/);

  const usage = await cli(['keys', 'rotate'], env);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /Usage:/);
});

test('the CLI says clearly when the server holds the embedded database', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'audit-cli-locked-'));
  const lock = lockDataDir(dir); // stands in for a running server: the same lock file
  try {
    const result = await cli(['keys', 'list'], { AUDIT_DATA_DIR: dir });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^error: The embedded database in .* is in use by another process \(pid \d+\)/);
    assert.equal(result.stderr.includes('    at '), false, 'a message, not a stack trace');
  } finally {
    lock.release();
  }
});

test('a bad environment value is reported by name', async () => {
  const result = await cli(['keys', 'list'], { AUDIT_RATE_LIMIT: 'many' });
  assert.equal(result.code, 1);
  assert.match(result.stderr, /^error: AUDIT_RATE_LIMIT must be an integer/);
});
