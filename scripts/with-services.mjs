#!/usr/bin/env node
// Runs one command with the test services up (the same PostgreSQL, Kafka-protocol
// broker and S3 server `npm test` starts), then stops them. For benchmarks:
//   node scripts/with-services.mjs node -r @swc-node/register bench/outbox/main.ts
import { ensureNodeModules, ensureSystemPackages } from './lib/install.mjs';
import { header, info, seconds } from './lib/log.mjs';
import { run } from './lib/processes.mjs';
import { chooseServiceMode, startServices } from './lib/services.mjs';
import { exitCodeForSignal, installSignalHandlers, interruptedSignal, teardown } from './lib/teardown.mjs';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node scripts/with-services.mjs <command> [args...]');
  process.exit(2);
}
installSignalHandlers();
let exitCode = 1;
try {
  await ensureNodeModules();
  const mode = chooseServiceMode();
  if (mode === 'local') await ensureSystemPackages();
  const { generatePrismaClients } = await import('./prisma-generate.mjs');
  await generatePrismaClients();
  header(`start services (${mode})`);
  const started = Date.now();
  const env = { ...process.env, ...(await startServices(mode)) };
  info(`services ready in ${seconds(started)}`);
  header(`${command} ${args.join(' ')}`);
  exitCode = await run(command, args, { env });
} finally {
  header('stop services');
  await teardown();
}
const signal = interruptedSignal();
process.exit(signal ? exitCodeForSignal(signal) : exitCode);
