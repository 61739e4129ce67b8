import { constants } from 'node:os';
import { signalForeground } from './processes.mjs';
import { info, seconds, warn } from './log.mjs';

/**
 * Everything a run starts registers how to stop it here; `teardown()` unwinds
 * in reverse order on every exit path (success, failure, Ctrl-C, SIGTERM from CI).
 */
const steps = [];
let interruptedBy = null;

export class Interrupted extends Error {
  constructor(signal) {
    super(`interrupted by ${signal}`);
    this.signal = signal;
  }
}

export function onTeardown(name, stop) {
  steps.push({ name, stop });
}

/** Throws once a signal arrived, so the run stops between steps instead of starting the next one. */
export function checkInterrupted() {
  if (interruptedBy) throw new Interrupted(interruptedBy);
}

export function interruptedSignal() {
  return interruptedBy;
}

export function exitCodeForSignal(signal) {
  return 128 + (constants.signals[signal] ?? 1);
}

export function installSignalHandlers() {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      if (interruptedBy) {
        warn(`${signal} again: still tearing down, please wait`);
        return;
      }
      interruptedBy = signal;
      warn(`${signal}: stopping`);
      // Ctrl-C already reached the terminal's process group; a `kill` aimed at
      // this process alone did not, so pass it on.
      signalForeground(signal);
    });
  }
}

export async function teardown() {
  while (steps.length) {
    const { name, stop } = steps.pop();
    const started = Date.now();
    try {
      await withTimeout(Promise.resolve().then(stop), 20_000, name);
      info(`${name}: done (${seconds(started)})`);
    } catch (error) {
      warn(`could not stop ${name}: ${error instanceof Error ? error.message : error}`);
    }
  }
}

function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not stop within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
