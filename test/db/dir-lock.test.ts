import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { DataDirLockedError, lockDataDir } from '../../src/db/dir-lock.ts';

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'audit-lock-'));

test('a second lock on the same directory fails fast, naming the holder', () => {
  const dir = tempDir();
  const lock = lockDataDir(dir);
  assert.throws(() => lockDataDir(dir), (error: unknown) => {
    assert.ok(error instanceof DataDirLockedError);
    assert.equal(error.holderPid, process.pid);
    assert.match(error.message, /in use by another process/);
    assert.match(error.message, /DATABASE_URL/);
    return true;
  });
  lock.release();
  lockDataDir(dir).release();
});

test('another process is refused while this one holds the lock', () => {
  const dir = tempDir();
  const lock = lockDataDir(dir);
  const child = spawnSync(
    process.execPath,
    ['-e', `import('${path.resolve(import.meta.dirname, '../../src/db/dir-lock.ts')}').then(m => m.lockDataDir(process.argv[1])).then(() => process.exit(0), e => { console.error(e.message); process.exit(3); })`, dir],
    { encoding: 'utf8' },
  );
  assert.equal(child.status, 3);
  assert.match(child.stderr, new RegExp(`pid ${process.pid}`));
  lock.release();
});

test('a lock left by a dead process is taken over', () => {
  const dir = tempDir();
  const dead = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
  fs.writeFileSync(path.join(dir, 'audit-service.lock'), dead.stdout);
  const lock = lockDataDir(dir);
  assert.equal(fs.readFileSync(path.join(dir, 'audit-service.lock'), 'utf8').trim(), String(process.pid));
  lock.release();
  assert.equal(fs.existsSync(path.join(dir, 'audit-service.lock')), false);
});

test('a lock naming our own pid that this process never took is stale (pid reuse after a restart)', () => {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, 'audit-service.lock'), `${process.pid}\n`);
  const lock = lockDataDir(dir);
  assert.throws(() => lockDataDir(dir), DataDirLockedError);
  lock.release();
});
