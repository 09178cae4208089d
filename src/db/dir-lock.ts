// PGlite has no lock of its own: two processes opening one data directory silently lose commits.
// This lock file makes the second process fail fast instead. It records the holder's pid; a lock
// whose pid is no longer alive (a crash, kill -9) is taken over.
//
// "Alive" is more than "the pid exists": a process killed with kill -9 stays in the process table
// as a zombie (state Z on Linux) until its parent reaps it, and `kill(pid, 0)` still succeeds on
// it. A zombie runs no code and holds no file open, so it holds no lock. And a holder that is
// being killed may take a moment to become one: before refusing, the lock waits a little
// (`waitMs`, polling) for the holder to die or let go.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export class DataDirLockedError extends Error {
  readonly holderPid: number;
  constructor(dataDir: string, holderPid: number) {
    super(
      `The embedded database in ${dataDir} is in use by another process (pid ${holderPid}). ` +
        'PGlite allows one process per data directory: stop that process, use another AUDIT_DATA_DIR, ' +
        'or set DATABASE_URL to share a PostgreSQL server between processes.',
    );
    this.holderPid = holderPid;
  }
}

// Lock files this process holds: a file naming our own pid that is not in here is a leftover
// from an earlier boot whose pid was reused.
const heldByThisProcess = new Set<string>();

/** How long a lock held by another live process is watched before the open is refused. */
export const DEFAULT_LOCK_WAIT_MS = 2500;
const POLL_MS = 50;

/**
 * The one-letter state of a process from /proc/<pid>/stat (Linux), or undefined where there is no
 * /proc or the process is gone. The state follows the command name, which is in parentheses and
 * may itself contain spaces and parentheses: so it is read after the last `)`.
 */
export function processState(pid: number): string | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  return stat.slice(stat.lastIndexOf(')') + 1).trim()[0];
}

/** Whether the pid is a process that can still hold the lock: it exists and is not a zombie (Z) or dead (X). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const state = processState(pid);
  return state !== 'Z' && state !== 'X';
}

export interface DirLock {
  release(): void;
}

export interface LockOptions {
  /** How long to wait for another live holder to die or let go before refusing; default 2500 ms. */
  waitMs?: number;
}

type Holder = { kind: 'free' } | { kind: 'unreadable' } | { kind: 'stale' } | { kind: 'live'; pid: number };

/** Who holds the lock file now. */
function holderOf(lockPath: string): Holder {
  const text = readIfExists(lockPath);
  if (text === undefined) return { kind: 'free' };
  const pid = Number.parseInt(text, 10);
  // No pid yet: another process between its open and its write, or one that crashed there.
  if (!Number.isInteger(pid) || pid <= 0) return { kind: 'unreadable' };
  const live = pid === process.pid ? heldByThisProcess.has(lockPath) : isAlive(pid);
  return live ? { kind: 'live', pid } : { kind: 'stale' };
}

export async function lockDataDir(dataDir: string, options: LockOptions = {}): Promise<DirLock> {
  const waitMs = options.waitMs ?? DEFAULT_LOCK_WAIT_MS;
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, 'audit-service.lock');
  const deadline = Date.now() + waitMs;
  let takeovers = 0;
  for (;;) {
    try {
      const fd = fs.openSync(lockPath, 'wx');
      fs.writeSync(fd, `${process.pid}\n`);
      fs.closeSync(fd);
      return held(lockPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = holderOf(lockPath);
    if (holder.kind === 'stale' || (holder.kind === 'unreadable' && Date.now() >= deadline)) {
      // Its process is gone (or a zombie), or the file never got a pid: remove it and try again.
      if (++takeovers > 3) throw new Error(`Could not take the lock ${lockPath}`);
      fs.rmSync(lockPath, { force: true });
      continue;
    }
    if (holder.kind === 'live') {
      // Our own live lock cannot be waited out; another process's may be dying (kill -9 just sent).
      if (holder.pid === process.pid || Date.now() >= deadline) throw new DataDirLockedError(dataDir, holder.pid);
    }
    // 'free' (released between the open and the read): try again at once.
    if (holder.kind !== 'free') await sleep(POLL_MS);
  }
}

function held(lockPath: string): DirLock {
  heldByThisProcess.add(lockPath);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    heldByThisProcess.delete(lockPath);
    process.off('exit', release);
    try {
      if (fs.readFileSync(lockPath, 'utf8').trim() === String(process.pid)) fs.unlinkSync(lockPath);
    } catch {
      // Already gone: nothing to release.
    }
  };
  process.on('exit', release);
  return { release };
}

/** The file's text, or undefined when there is no such file. */
function readIfExists(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}
