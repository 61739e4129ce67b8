import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { spawnTsProcess, type SpawnedProcess } from '@genasset/testing';

const REPO = resolve(__dirname, '../..');

/**
 * apps/platform/src/main.ts in its own process. With BENCH_PROFILE=<dir> it
 * runs under `--cpu-prof` and writes a V8 CPU profile there when it exits
 * (--cpu-prof is not allowed in NODE_OPTIONS, so not via spawnTsProcess).
 */
export function spawnPlatform(env: NodeJS.ProcessEnv): SpawnedProcess {
  const entry = 'apps/platform/src/main.ts';
  const dir = process.env.BENCH_PROFILE;
  if (!dir) return spawnTsProcess(entry, env);
  const child = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${resolve(dir)}`, '-r', '@swc-node/register', resolve(REPO, entry)], {
    cwd: REPO,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return {
    child,
    output: () => '',
    errors: () => '',
    waitForLine: () => Promise.reject(new Error('output not captured while profiling')),
    kill: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}
