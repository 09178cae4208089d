// PGlite has no lock of its own: two processes opening one data directory silently lose commits.
// This lock file makes the second process fail fast instead. It records the holder's pid; a lock
// whose pid is no longer alive (a crash, kill -9) is taken over.
import fs from 'node:fs';
import path from 'node:path';

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

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface DirLock {
  release(): void;
}

export function lockDataDir(dataDir: string): DirLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, 'audit-service.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = fs.openSync(lockPath, 'wx');
      fs.writeSync(fd, `${process.pid}\n`);
      fs.closeSync(fd);
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
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number.parseInt(readOrEmpty(lockPath), 10);
    const live = holder === process.pid ? heldByThisProcess.has(lockPath) : holder > 0 && isAlive(holder);
    if (Number.isInteger(holder) && live) {
      throw new DataDirLockedError(dataDir, holder);
    }
    // Stale (its process is gone) or unreadable: remove it and try once more.
    fs.rmSync(lockPath, { force: true });
  }
  throw new Error(`Could not take the lock ${lockPath}`);
}

function readOrEmpty(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
