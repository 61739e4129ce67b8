import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, readlinkSync, renameSync, statSync, unlinkSync, utimesSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';

/** The lock file, directly in the data directory. */
export const LOCK_FILE = 'genasset.lock';
/** The holder refreshes its lock file's mtime this often (see `alive`). */
export const LOCK_HEARTBEAT_MS = 10_000;
/** A lock whose holder cannot be probed and that was not refreshed for this long is stale. */
export const LOCK_SILENT_MS = 60_000;

/** Who holds a lock: written into the lock file by its holder. */
export interface LockHolder {
  pid: number;
  hostname: string;
  /** Linux: this boot of the kernel (pids are only meaningful within one boot). */
  bootId: string | null;
  /** Linux: the pid namespace (a pid means nothing outside its container). */
  pidNamespace: string | null;
  startedAt: string;
}

export interface DataDirLock {
  /** The lock file. */
  readonly path: string;
  /** The stale lock this one replaced (its holder was gone), if any. */
  readonly tookOverFrom?: LockHolder;
  /** Deletes the lock file (if it is still this process's). Idempotent; also runs at process exit. */
  release(): void;
}

/** Another live process holds the data directory. */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder | undefined,
    readonly lockFile: string,
    probed: boolean,
  ) {
    const who = holder ? `process ${holder.pid} on host ${holder.hostname} (started ${holder.startedAt})` : 'another process (starting up)';
    super(
      `DATA_DIR ${dataDir} is in use by ${who}. Only one process may use a data directory (a second one would ` +
        `corrupt its embedded database): stop that process, or give this one another DATA_DIR.` +
        (probed
          ? ''
          : ` That process runs on another machine or in another container, where this one cannot see it: if it is gone, ` +
            `its lock ${lockFile} is taken over once it has gone ${LOCK_SILENT_MS / 1000} s without a heartbeat.`),
    );
    this.name = 'DataDirInUseError';
  }
}

/** Paths this process holds: a second open in the same process is refused too. */
const heldHere = new Set<string>();

/**
 * Locks a data directory for this process, before its embedded database is
 * opened: two PGlite instances on one directory each believe they own it, and
 * the second one's writes silently destroy the first one's.
 *
 * Hand-written because the libraries do not fit: `proper-lockfile` judges a
 * lock stale by its mtime alone (a live holder whose event loop is blocked
 * longer than the staleness, as a large PGlite statement can do, is taken
 * over: the very corruption this prevents) and records no holder to name; the
 * kernel locks that die with their process (flock) need a native addon, which
 * cannot be built here. So: an exclusive-create lock file naming its holder,
 * taken over only when the holder is provably gone (`alive`).
 */
export function lockDataDir(dataDir: string): DataDirLock {
  const dir = resolve(dataDir);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, LOCK_FILE);
  const me = currentHolder();
  if (heldHere.has(path)) throw new DataDirInUseError(dir, me, path, true);
  let tookOverFrom: LockHolder | undefined;
  // A few rounds: a lock can vanish or be replaced between two of our steps (another starter).
  for (let round = 0; round < 5; round++) {
    const ino = create(path, me);
    if (ino !== undefined) return hold(path, ino, tookOverFrom);
    const found = inspect(path);
    if (!found) continue;
    const verdict = alive(found, me);
    if (verdict.alive) throw new DataDirInUseError(dir, found.holder, path, verdict.probed);
    if (moveAside(path, found.ino)) tookOverFrom = found.holder;
  }
  throw new Error(`DATA_DIR ${dir}: could not lock it, its lock file ${path} kept changing (other processes starting on it?)`);
}

/** This process as a lock holder. */
export function currentHolder(): LockHolder {
  return {
    pid: process.pid,
    hostname: hostname(),
    bootId: attempt(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()),
    pidNamespace: attempt(() => readlinkSync('/proc/self/ns/pid')),
    startedAt: new Date().toISOString(),
  };
}

/** Exclusive create: the lock file's inode, or undefined when one exists already. */
function create(path: string, me: LockHolder): number | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o644);
  } catch (error) {
    if (code(error) === 'EEXIST') return undefined;
    throw error;
  }
  try {
    writeSync(fd, `${JSON.stringify(me)}\n`);
  } finally {
    closeSync(fd);
  }
  return statSync(path).ino;
}

interface Found {
  /** Undefined while its creator has not written it yet, or when a crash left it empty. */
  holder?: LockHolder;
  ino: number;
  mtimeMs: number;
}

function inspect(path: string): Found | undefined {
  try {
    const stat = statSync(path);
    const text = readFileSync(path, 'utf8');
    const holder = attempt(() => JSON.parse(text) as LockHolder) ?? undefined;
    return { holder: typeof holder?.pid === 'number' ? holder : undefined, ino: stat.ino, mtimeMs: stat.mtimeMs };
  } catch (error) {
    if (code(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Whether the holder may still run. Within one kernel boot and pid namespace
 * (the same host, the same container) its pid answers for certain: signal 0
 * fails with ESRCH only when no such process exists (EPERM: it exists, as
 * another user). A pid equal to ours is a dead predecessor's (we hold no lock
 * yet). Elsewhere — another machine sharing the directory, another container
 * on the same volume, a boot since — a pid says nothing, and the holder's
 * heartbeat (the lock file's mtime, refreshed every LOCK_HEARTBEAT_MS) decides:
 * silent for LOCK_SILENT_MS means gone.
 */
function alive(found: Found, me: LockHolder): { alive: boolean; probed: boolean } {
  const silent = Date.now() - found.mtimeMs >= LOCK_SILENT_MS;
  const holder = found.holder;
  if (!holder) return { alive: !silent, probed: false };
  const probeable =
    holder.hostname === me.hostname && holder.bootId === me.bootId && holder.pidNamespace === me.pidNamespace;
  if (!probeable) return { alive: !silent, probed: false };
  if (holder.pid === me.pid) return { alive: false, probed: true };
  try {
    process.kill(holder.pid, 0);
    return { alive: true, probed: true };
  } catch (error) {
    return { alive: code(error) !== 'ESRCH', probed: true };
  }
}

/**
 * Moves a stale lock out of the way; true when it was the one judged stale.
 * Renaming (atomic) rather than deleting: when two starters judge the same
 * stale lock, the second one's rename either finds nothing or moves the
 * first one's fresh lock — which a different inode betrays, and which is put
 * back before anyone else could have taken the name (that would need a third
 * start within the same instant).
 */
function moveAside(path: string, staleIno: number): boolean {
  const aside = `${path}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if (code(error) === 'ENOENT') return false;
    throw error;
  }
  if (statSync(aside).ino !== staleIno) {
    renameSync(aside, path);
    return false;
  }
  unlinkSync(aside);
  return true;
}

function hold(path: string, ino: number, tookOverFrom: LockHolder | undefined): DataDirLock {
  heldHere.add(path);
  const ours = () => attempt(() => statSync(path).ino) === ino;
  // The heartbeat that tells holders elsewhere (other containers, machines) that we live; unref'd,
  // so it never keeps the process up. Never refreshes a lock that is no longer ours.
  const heartbeat = setInterval(() => {
    if (!ours()) return;
    const now = new Date();
    attempt(() => utimesSync(path, now, now));
  }, LOCK_HEARTBEAT_MS).unref();
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    clearInterval(heartbeat);
    process.removeListener('exit', release);
    heldHere.delete(path);
    if (ours()) attempt(() => unlinkSync(path));
  };
  // A process that exits without closing its database (process.exit on a failed shutdown) still frees it.
  process.on('exit', release);
  return { path, tookOverFrom, release };
}

function attempt<T>(fn: () => T): T | null {
  try {
    return fn();
  } catch {
    return null;
  }
}

function code(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}
