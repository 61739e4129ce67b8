import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { info } from './log.mjs';

/**
 * One temp directory per run holds every service's data, sockets and logs.
 * It also records the owner and child pids, so a later run can clean up after
 * a run that was SIGKILLed (postgres detaches from us and would outlive it).
 */
const PREFIX = 'genasset-test-';

export function createRunDir() {
  const dir = mkdtempSync(join(tmpdir(), PREFIX));
  // The postgres user (initdb/pg_ctl run as it under root) must reach its subdirectories.
  chmodSync(dir, 0o711);
  mkdirSync(join(dir, 'pids'));
  writeFileSync(join(dir, 'owner.pid'), String(process.pid));
  return dir;
}

export function recordPid(runDir, name, pid) {
  if (pid) writeFileSync(join(runDir, 'pids', name), String(pid));
}

export function removeRunDir(runDir) {
  rmSync(runDir, { recursive: true, force: true });
}

/** Stops what dead runs left behind, then deletes their directories; live runs (parallel `npm test`) are left alone. */
export async function reapStaleRuns() {
  for (const entry of readdirSync(tmpdir())) {
    if (!entry.startsWith(PREFIX)) continue;
    const dir = join(tmpdir(), entry);
    const owner = readPid(join(dir, 'owner.pid'));
    if (owner && isAlive(owner) && (!existsSync('/proc') || /(test|with-services)\.mjs/.test(commandLine(owner))))
      continue;
    const pids = [];
    const postmaster = readPid(join(dir, 'pgdata', 'postmaster.pid'));
    if (postmaster) pids.push(postmaster);
    if (existsSync(join(dir, 'pids'))) {
      for (const name of readdirSync(join(dir, 'pids'))) pids.push(readPid(join(dir, 'pids', name)));
    }
    // Only processes whose command line names this directory: pids get reused.
    const ours = [...new Set(pids)].filter((pid) => pid && commandLine(pid).includes(dir));
    for (const pid of ours) kill(pid, pid === postmaster ? 'SIGQUIT' : 'SIGKILL');
    const deadline = Date.now() + 5_000;
    while (ours.some(isAlive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    rmSync(dir, { recursive: true, force: true });
    info(
      `cleaned up after an earlier run that did not finish: ${dir}${ours.length ? ` (stopped ${ours.length} process(es))` : ''}`,
    );
  }
}

function readPid(file) {
  try {
    const pid = Number.parseInt(readFileSync(file, 'utf8').split('\n')[0], 10);
    return Number.isFinite(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

function commandLine(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

function kill(pid, signal) {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}
