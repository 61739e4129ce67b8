#!/usr/bin/env node
// `npm start`: the whole product in one process (embedded mode) on a machine
// with only Node and npm. Installs dependencies when missing, generates the
// Prisma clients, then runs apps/platform. With DATABASE_URL, KAFKA_BROKERS and
// S3_* set, the same process uses those services instead of the embedded ones.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureConsoleBuilt } from './lib/console-build.mjs';
import { ensureNodeModules } from './lib/install.mjs';
import { REPO_ROOT as root } from './lib/paths.mjs';

await ensureNodeModules();
// Imported only now: the generator needs the dependencies installed above.
const { generatePrismaClients } = await import('./prisma-generate.mjs');
await generatePrismaClients();
// The web console at /console: static files, built when missing or older than its sources.
await ensureConsoleBuilt();

// The TypeScript, compiled ahead into a cache the platform only reads (tools/ts-runtime says why).
await new Promise((resolve, reject) =>
  spawn(process.execPath, [join(root, 'tools/ts-runtime/compile-cache.cjs'), 'apps', 'libs'], { cwd: root, stdio: 'inherit' })
    .once('error', reject)
    .once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`compiling the TypeScript failed (exit ${code})`)))),
);

console.log('> starting apps/platform (embedded mode unless DATABASE_URL / KAFKA_BROKERS / S3_* are set)');
// A young generation of 4 MB semi-spaces instead of 16: ~20 MB less idle RSS; this
// process's requests allocate little, so its scavenges stay short.
const nodeArgs = ['--max-semi-space-size=4', '-r', join(root, 'tools/ts-runtime/register.cjs')];
const child = spawn(process.execPath, [...nodeArgs, join(root, 'apps/platform/src/main.ts')], {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
