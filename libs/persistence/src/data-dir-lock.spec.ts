import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { currentHolder, DataDirInUseError, LOCK_FILE, LOCK_HEARTBEAT_MS, LOCK_SILENT_MS, lockDataDir, type LockHolder } from './data-dir-lock';

describe('lockDataDir', () => {
  let dir: string;
  let lockFile: string;
  const release: (() => void)[] = [];
  const lock = (d = dir) => {
    const held = lockDataDir(d);
    release.push(held.release);
    return held;
  };
  // What this process would write: the same host, boot and pid namespace, so pids are probed.
  const here = (pid: number): LockHolder => ({ ...currentHolder(), pid, startedAt: '2026-01-01T00:00:00.000Z' });
  const writeLock = (holder: LockHolder | string, ageMs = 0) => {
    writeFileSync(lockFile, typeof holder === 'string' ? holder : JSON.stringify(holder));
    const at = new Date(Date.now() - ageMs);
    utimesSync(lockFile, at, at);
  };
  const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'data-dir-lock-'));
    lockFile = join(dir, LOCK_FILE);
  });
  afterEach(() => {
    jest.useRealTimers();
    release.splice(0).forEach((r) => r());
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the holder into the lock file and deletes it on release; a second lock in this process is refused', () => {
    const held = lock();
    expect(JSON.parse(readFileSync(lockFile, 'utf8'))).toMatchObject({ pid: process.pid, hostname: hostname() });
    expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
    held.release();
    expect(existsSync(lockFile)).toBe(false);
    expect(lock().tookOverFrom).toBeUndefined();
  });

  it('refuses a directory whose holder runs, naming the directory and its pid', () => {
    writeLock(here(process.ppid));
    expect(() => lockDataDir(dir)).toThrow(`DATA_DIR ${dir} is in use by process ${process.ppid} on host ${hostname()}`);
    expect(JSON.parse(readFileSync(lockFile, 'utf8'))).toMatchObject({ pid: process.ppid });
  });

  it('takes over the lock of a process that is gone', () => {
    const pid = deadPid();
    writeLock(here(pid));
    const held = lock();
    expect(held.tookOverFrom).toMatchObject({ pid });
    expect(JSON.parse(readFileSync(lockFile, 'utf8'))).toMatchObject({ pid: process.pid });
  });

  it('takes over a lock naming its own pid (a predecessor with the same pid, e.g. pid 1 of a restarted container)', () => {
    writeLock(here(process.pid));
    expect(lock().tookOverFrom).toMatchObject({ pid: process.pid });
  });

  it('a holder it cannot probe (another host, container or boot) counts as alive until its heartbeat is silent', () => {
    const elsewhere = { ...here(process.ppid), hostname: 'another-host', pidNamespace: 'pid:[1]' };
    writeLock(elsewhere, LOCK_SILENT_MS - 5_000);
    expect(() => lockDataDir(dir)).toThrow(/in use by process \d+ on host another-host .*taken over once it has gone 60 s without a heartbeat/);
    writeLock(elsewhere, LOCK_SILENT_MS + 1_000);
    expect(lock().tookOverFrom).toMatchObject({ hostname: 'another-host' });
  });

  it('an unreadable lock file is a holder still writing it, until it is as old as a silent heartbeat', () => {
    writeLock('');
    expect(() => lockDataDir(dir)).toThrow(/in use by another process \(starting up\)/);
    writeLock('{"pid":', LOCK_SILENT_MS + 1_000);
    expect(lock().path).toBe(lockFile);
  });

  it('refreshes its lock file while held (the heartbeat holders elsewhere judge it by)', () => {
    jest.useFakeTimers({ doNotFake: ['Date'] });
    lock();
    const old = new Date(Date.now() - 30_000);
    utimesSync(lockFile, old, old);
    jest.advanceTimersByTime(LOCK_HEARTBEAT_MS);
    expect(Date.now() - statSync(lockFile).mtimeMs).toBeLessThan(5_000);
  });
});
