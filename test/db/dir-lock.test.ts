import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataDirLockedError, lockDataDir } from '../../src/db/dir-lock.ts';

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'audit-lock-'));

test('a second lock on the same directory fails fast, naming the holder', async () => {
  const dir = tempDir();
  const lock = await lockDataDir(dir);
  const started = Date.now();
  await assert.rejects(lockDataDir(dir), (error: unknown) => {
    assert.ok(error instanceof DataDirLockedError);
    assert.equal(error.holderPid, process.pid);
    assert.match(error.message, /in use by another process/);
    assert.match(error.message, /DATABASE_URL/);
    return true;
  });
  assert.ok(Date.now() - started < 1000, 'our own live lock is not waited for');
  lock.release();
  (await lockDataDir(dir)).release();
});

test('another process is refused while this one holds the lock', async () => {
  const dir = tempDir();
  const lock = await lockDataDir(dir);
  const child = spawnSync(
    process.execPath,
    ['-e', `import('${path.resolve(import.meta.dirname, '../../src/db/dir-lock.ts')}').then(m => m.lockDataDir(process.argv[1])).then(() => process.exit(0), e => { console.error(e.message); process.exit(3); })`, dir],
    { encoding: 'utf8' },
  );
  assert.equal(child.status, 3);
  assert.match(child.stderr, new RegExp(`pid ${process.pid}`));
  lock.release();
});

test('a lock left by a dead process is taken over', async () => {
  const dir = tempDir();
  const dead = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
  fs.writeFileSync(path.join(dir, 'audit-service.lock'), dead.stdout);
  const lock = await lockDataDir(dir);
  assert.equal(fs.readFileSync(path.join(dir, 'audit-service.lock'), 'utf8').trim(), String(process.pid));
  lock.release();
  assert.equal(fs.existsSync(path.join(dir, 'audit-service.lock')), false);
});

test('a lock naming our own pid that this process never took is stale (pid reuse after a restart)', async () => {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, 'audit-service.lock'), `${process.pid}\n`);
  const lock = await lockDataDir(dir);
  await assert.rejects(lockDataDir(dir), DataDirLockedError);
  lock.release();
});

// A holder process: takes the lock on argv[1], prints its pid, then idles (or, with argv[2], kills
// itself with SIGKILL that many ms later, leaving the lock file behind).
const HOLDER = `import(${JSON.stringify(path.resolve(import.meta.dirname, '../../src/db/dir-lock.ts'))})
  .then((m) => m.lockDataDir(process.argv[1]))
  .then(() => {
    console.log(process.pid);
    if (process.argv[2]) setTimeout(() => process.kill(process.pid, 'SIGKILL'), Number(process.argv[2]));
    setInterval(() => {}, 1000);
  }, (e) => { console.error(e.message); process.exit(3); });`;

/** The first line the child writes: the holder's pid, once it holds the lock. */
function holderPid(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('\n')) resolve(Number.parseInt(out, 10));
    });
    child.once('exit', (code) => reject(new Error(`holder exited (${code}) before taking the lock`)));
  });
}

/** The process's state letter from /proc/<pid>/stat (after the command name's last `)`), or undefined once gone. */
function procState(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 1).trim()[0];
  } catch {
    return undefined;
  }
}

function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms} ms`);
    await sleep(20);
  }
}

test('a holder killed with kill -9 but not yet reaped (a zombie) does not hold the lock', { skip: process.platform !== 'linux' && 'zombies are read from /proc' }, async () => {
  const dir = tempDir();
  // The shell starts the holder in the background and then becomes `sleep`, which never waits for
  // children: once killed, the holder stays a zombie until the sleep ends.
  const parent = spawn('sh', ['-c', '"$0" -e "$1" "$2" & exec sleep 30', process.execPath, HOLDER, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const pid = await holderPid(parent);
    await assert.rejects(async () => lockDataDir(dir, { waitMs: 200 }), DataDirLockedError, 'a live holder is refused');
    process.kill(pid, 'SIGKILL');
    await until(() => procState(pid) === 'Z', 5000, 'the holder becoming a zombie');
    assert.ok(exists(pid), 'the zombie still answers signal 0, as a live process does');
    const started = Date.now();
    const lock = await lockDataDir(dir);
    assert.ok(Date.now() - started < 1000, 'a zombie is not waited for');
    assert.equal(fs.readFileSync(path.join(dir, 'audit-service.lock'), 'utf8').trim(), String(process.pid));
    lock.release();
  } finally {
    parent.kill('SIGKILL'); // the sleep: the zombie goes to init, which reaps it
  }
});

test('a holder that dies while the lock waits for it is taken over', async () => {
  const dir = tempDir();
  const child = spawn(process.execPath, ['-e', HOLDER, dir, '400'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const pid = await holderPid(child);
    const lock = await lockDataDir(dir, { waitMs: 10_000 });
    assert.ok(!exists(pid) || procState(pid) === 'Z', 'taken only once the holder died');
    assert.equal(fs.readFileSync(path.join(dir, 'audit-service.lock'), 'utf8').trim(), String(process.pid));
    lock.release();
  } finally {
    child.kill('SIGKILL');
  }
});

test('a live holder in another process is refused after the bounded wait, naming it', async () => {
  const dir = tempDir();
  const child = spawn(process.execPath, ['-e', HOLDER, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const pid = await holderPid(child);
    const started = Date.now();
    await assert.rejects(async () => lockDataDir(dir, { waitMs: 300 }), (error: unknown) => {
      assert.ok(error instanceof DataDirLockedError);
      assert.equal(error.holderPid, pid);
      return true;
    });
    const waited = Date.now() - started;
    assert.ok(waited >= 300 && waited < 5000, `waited ${waited} ms`);
    assert.equal(fs.readFileSync(path.join(dir, 'audit-service.lock'), 'utf8').trim(), String(pid), 'the holder keeps its lock');
  } finally {
    child.kill('SIGKILL');
  }
});
