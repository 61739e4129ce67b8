#!/usr/bin/env node
// `npm test`: the one command that installs what is missing, starts real
// PostgreSQL, a Kafka-protocol broker and an S3 server, migrates, and runs the
// typecheck, lint, unit and integration tests, then stops everything it started.
//
//   npm test                              everything, as CI runs it
//   npm test -- libs/foo/bar.int-spec.ts  extra args go to both jest runs
//   TEST_SKIP_CHECKS=1 npm test           skip typecheck and lint
//   TEST_SERVICES=local|docker npm test   choose how services start (default: docker if usable)
//
// Only node: builtins are imported statically: node_modules may not exist yet.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ensureConsoleBuilt } from './lib/console-build.mjs';
import { ensureNodeModules, ensureSystemPackages } from './lib/install.mjs';
import { fail, header, info, seconds, warn } from './lib/log.mjs';
import { bin, REPO_ROOT } from './lib/paths.mjs';
import { run } from './lib/processes.mjs';
import {
  checkInterrupted,
  exitCodeForSignal,
  installSignalHandlers,
  Interrupted,
  interruptedSignal,
  teardown,
} from './lib/teardown.mjs';

const jestArgs = process.argv.slice(2);
const results = [];

async function main() {
  await ensureNodeModules();
  checkInterrupted();
  const { chooseServiceMode, startServices } = await import('./lib/services.mjs');
  const mode = chooseServiceMode();
  // nginx (the distributed test's gateway) and chromium (the console's browser test) in every mode;
  // PostgreSQL and the broker's build tools for local processes.
  await ensureSystemPackages({ services: mode === 'local', gateway: true, browser: true });
  checkInterrupted();

  header('generate Prisma clients');
  const { generatePrismaClients } = await import('./prisma-generate.mjs');
  await generatePrismaClients();
  checkInterrupted();
  // Served by the platform at /console and driven by apps/console/test in a real browser.
  await ensureConsoleBuilt();
  checkInterrupted();

  header(`start services (${mode})`);
  const setupStarted = Date.now();
  const serviceEnv = await startServices(mode);
  info(`services ready in ${seconds(setupStarted)}`);
  const env = { ...process.env };
  for (const [key, value] of Object.entries(serviceEnv)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  checkInterrupted();

  if (existsSync(join(REPO_ROOT, 'apps/cli/src/main.ts'))) {
    await step(
      'migrate',
      process.execPath,
      ['-r', '@swc-node/register', 'apps/cli/src/main.ts', 'migrate'],
      env,
    );
  } else {
    header('migrate');
    warn('skipped: apps/cli/src/main.ts does not exist yet');
  }

  if (process.env.TEST_SKIP_CHECKS === '1') {
    header('typecheck, lint');
    warn('skipped (TEST_SKIP_CHECKS=1)');
  } else {
    // The three static checks side by side: each is mostly one thread, and in sequence they took
    // 83 s of a CI run on two cores (31.7 + 19.2 + 32.1 s); their output interleaves.
    const lint = async () => {
      if (readdirSync(REPO_ROOT).some((f) => /^eslint\.config\.[cm]?[jt]s$/.test(f))) {
        // The Nx boundary rule reads the cached project graph; without it the rule is skipped silently.
        await run(bin('nx'), ['show', 'projects'], { env, stdio: 'ignore' });
        await step('lint', bin('eslint'), ['.', '--max-warnings=0'], env);
      } else {
        header('lint');
        warn('skipped: no eslint.config.* in the repository root');
      }
    };
    await Promise.all([
      step('typecheck', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit'], env),
      // The console is browser code (DOM types, JSX, bundler resolution): its own project.
      step('typecheck console', bin('tsc'), ['-p', 'apps/console/tsconfig.json', '--noEmit'], env),
      lint(),
    ]);
  }

  // PGlite (embedded PostgreSQL) loads its WASM through dynamic import(), which
  // Jest's CommonJS sandbox only allows with VM modules enabled.
  const jestEnv = { ...env, NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --experimental-vm-modules --no-warnings=ExperimentalWarning`.trim() };
  // Extra args come first: --selectProjects takes a list and would swallow a path placed after it.
  // --passWithNoTests: a path given for one project matches nothing in the other.
  // Two workers: jest's default (cores - 1) is one on CI's two cores, which left one core idle.
  await step('unit tests', bin('jest'), [...jestArgs, '--passWithNoTests', '--maxWorkers=2', '--selectProjects', 'unit'], jestEnv);
  // Three workers on two cores: an integration file waits about 3 s with its CPU idle while its
  // consumer groups form (the test broker holds a new group's first join for 3 s, librdkafka
  // 2.0.2's rdkafka_mock_cgrp.c), and a third file fills that time: 695 s on three workers, against
  // 904 s on two before three slow files were fixed (worth about 70 s on two).
  await step(
    'integration tests',
    bin('jest'),
    [...jestArgs, '--passWithNoTests', '--maxWorkers=3', '--selectProjects', 'integration'],
    jestEnv,
  );
  // Alone and last: its drills take the broker down and restart PostgreSQL under every service.
  await step(
    'distributed tests',
    bin('jest'),
    [...jestArgs, '--passWithNoTests', '--runInBand', '--selectProjects', 'distributed'],
    jestEnv,
  );
}

/** Runs one check with the terminal attached; a failure fails the run, but later steps still report. */
async function step(name, command, args, env) {
  checkInterrupted();
  header(name);
  const started = Date.now();
  const code = await run(command, args, { env });
  results.push({ name, code, took: seconds(started) });
  checkInterrupted();
}

installSignalHandlers();
// Output piped into `head` that exits early must not kill us before teardown.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
process.on('uncaughtException', (error) => {
  fail(`unexpected: ${error instanceof Error ? error.stack : error}`);
  void teardown().finally(() => process.exit(1));
});
const runStarted = Date.now();
let exitCode = 0;
try {
  await main();
  exitCode = results.find((r) => r.code !== 0)?.code ?? 0;
} catch (error) {
  if (!(error instanceof Interrupted)) {
    fail(error instanceof Error ? error.message : String(error));
    exitCode = 1;
  }
} finally {
  header('stop services');
  const teardownStarted = Date.now();
  await teardown();
  info(`stopped in ${seconds(teardownStarted)}`);
}

const signal = interruptedSignal();
if (signal) exitCode = exitCodeForSignal(signal);
if (results.length) {
  header('summary');
  for (const { name, code, took } of results)
    console.log(`   ${code === 0 ? 'ok  ' : 'FAIL'} ${name} (${took})`);
}
console.log(
  `\nnpm test ${signal ? `interrupted by ${signal}` : exitCode === 0 ? 'passed' : 'FAILED'} in ${seconds(runStarted)}`,
);
process.exit(exitCode);
