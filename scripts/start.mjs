#!/usr/bin/env node
// `npm start`: the whole product in one process (embedded mode) on a machine
// with only Node and npm. Installs dependencies when missing, generates the
// Prisma clients, then runs apps/platform. With DATABASE_URL, KAFKA_BROKERS and
// S3_* set, the same process uses those services instead of the embedded ones.
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = (cmd, args) => {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

const marker = join(root, 'node_modules/.modules.yaml');
const lock = join(root, 'pnpm-lock.yaml');
if (!existsSync(marker) || statSync(lock).mtimeMs > statSync(marker).mtimeMs) {
  console.log('> installing dependencies (pnpm, from the lockfile)');
  const hasPnpm = spawnSync('pnpm', ['--version'], { stdio: 'ignore' }).status === 0;
  if (hasPnpm) run('pnpm', ['install', '--frozen-lockfile']);
  else run('npx', ['-y', 'pnpm@10.34.8', 'install', '--frozen-lockfile']);
}
run(process.execPath, [join(root, 'scripts/prisma-generate.mjs')]);

console.log('> starting apps/platform (embedded mode unless DATABASE_URL / KAFKA_BROKERS / S3_* are set)');
const child = spawn(process.execPath, ['-r', '@swc-node/register', join(root, 'apps/platform/src/main.ts')], {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
