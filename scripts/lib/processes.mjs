import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { constants as os } from 'node:os';
import { delimiter, join } from 'node:path';
import { REPO_ROOT } from './paths.mjs';

/** Children running in the foreground right now; a signal to us is passed on to them. */
const foreground = new Set();

/** Exit code as a shell reports it: a child killed by SIGINT counts as 130. */
function exitCode(code, signal) {
  return code ?? 128 + (os.signals[signal] ?? 1);
}

/** Runs a command with the terminal attached (its output is the point) and resolves with its exit code. */
export function run(command, args = [], { env = process.env, cwd = REPO_ROOT, stdio = 'inherit' } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio });
    foreground.add(child);
    child.once('error', (error) => {
      foreground.delete(child);
      console.error(`${command}: ${error.message}`);
      resolve(127);
    });
    child.once('close', (code, signal) => {
      foreground.delete(child);
      resolve(exitCode(code, signal));
    });
  });
}

/** Runs a command for its output. */
export function capture(command, args = [], { env = process.env, cwd = REPO_ROOT } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    foreground.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.once('error', (error) => {
      foreground.delete(child);
      resolve({ code: 127, stdout, stderr: `${stderr}${error.message}` });
    });
    child.once('close', (code, signal) => {
      foreground.delete(child);
      resolve({ code: exitCode(code, signal), stdout, stderr });
    });
  });
}

/** Passes an interrupt on to whatever runs in the foreground (jest, tsc, pnpm). */
export function signalForeground(signal) {
  for (const child of foreground) child.kill(signal);
}

export function which(name) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return null;
}

export const isRoot = () => process.getuid?.() === 0;
