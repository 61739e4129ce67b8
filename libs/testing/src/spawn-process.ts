import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

export interface SpawnedProcess {
  readonly child: ChildProcess;
  /** Everything written to stdout so far. */
  output(): string;
  /** Everything written to stderr so far (why a process failed). */
  errors(): string;
  /** Resolves when a stdout line matches. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  kill(signal?: NodeJS.Signals): Promise<number | null>;
}

const REPO_ROOT = resolve(__dirname, '../../..');

/** What `npm start` runs the platform with (scripts/start.mjs): the TypeScript from its compile cache. */
const TS_REGISTER = resolve(REPO_ROOT, 'tools/ts-runtime/register.cjs');

/**
 * Starts a TypeScript entry point as a separate OS process, as `npm start`
 * runs it, so tests can SIGKILL or SIGTERM it for real.
 */
export function spawnTsProcess(entry: string, env: NodeJS.ProcessEnv = {}, args: string[] = []): SpawnedProcess {
  const child = spawn(process.execPath, ['-r', TS_REGISTER, resolve(REPO_ROOT, entry), ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const listeners = new Set<() => void>();
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const l of listeners) l();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
  return {
    child,
    output: () => stdout,
    errors: () => stderr,
    waitForLine(pattern, timeoutMs = 30_000) {
      return new Promise((res, rej) => {
        const check = () => {
          const line = stdout.split('\n').find((l) => pattern.test(l));
          if (line !== undefined) {
            clearTimeout(timer);
            listeners.delete(check);
            res(line);
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          rej(new Error(`timed out waiting for ${pattern} from ${entry}\nstdout:\n${stdout}\nstderr:\n${stderr}`));
        }, timeoutMs);
        listeners.add(check);
        void exited.then(() => {
          if (listeners.has(check)) {
            check();
            if (listeners.has(check)) {
              clearTimeout(timer);
              listeners.delete(check);
              rej(new Error(`${entry} exited before printing ${pattern}\nstdout:\n${stdout}\nstderr:\n${stderr}`));
            }
          }
        });
        check();
      });
    },
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
