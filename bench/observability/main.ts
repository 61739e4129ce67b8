/**
 * Overhead of metrics + tracing on the hot paths: runs run.ts with tracing
 * off and on, alternating, ROUNDS times each, and prints the medians.
 *   node -r @swc-node/register bench/observability/main.ts
 * (no services needed). See README.md for what is measured and results.
 */
import 'reflect-metadata';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { MESSAGING_MIGRATIONS } from '@genasset/messaging';
import { migrate, PostgresConnection } from '@genasset/persistence';
import { createTestDatabase } from '@genasset/testing';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

interface Result {
  mode: 'on' | 'off';
  consumerUs: number;
  consumerDbUs?: number;
  httpUs: number;
  primitivesNs: Record<string, number>;
}

function run(mode: 'on' | 'off', env: NodeJS.ProcessEnv): Result {
  const out = spawnSync(process.execPath, ['-r', '@swc-node/register', resolve(__dirname, 'run.ts'), mode], {
    cwd: resolve(__dirname, '../..'),
    env,
    encoding: 'utf8',
  });
  if (out.status !== 0) throw new Error(`run.ts ${mode} failed: ${out.stderr}`);
  return JSON.parse(out.stdout.trim().split('\n').pop()!) as Result;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
  // Under scripts/with-services.mjs: a database of its own with the outbox table the handler writes to.
  const database = process.env.TEST_DATABASE_URL ? await createTestDatabase('obsbench') : undefined;
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (database) {
    const db = new PostgresConnection(database.url);
    await migrate(db, { schema: 'obsbench', migrations: [MESSAGING_MIGRATIONS] });
    await db.close();
    env.BENCH_DATABASE_URL = database.url;
  }
  const results: Result[] = [];
  try {
    for (let i = 0; i < ROUNDS; i++) for (const mode of ['off', 'on'] as const) results.push(run(mode, env));
  } finally {
    await database?.drop();
  }
  report(results);
}

function report(results: Result[]): void {
  const of = (mode: 'on' | 'off', pick: (r: Result) => number) =>
    median(results.filter((r) => r.mode === mode).map(pick));
  const row = (name: string, pick: (r: Result) => number, unit: string) => {
    const off = of('off', pick);
    const on = of('on', pick);
    console.log(
      `${name.padEnd(34)} off ${off.toFixed(1).padStart(8)} ${unit}   on ${on.toFixed(1).padStart(8)} ${unit}   (+${(((on - off) / off) * 100).toFixed(0)} %)`,
    );
  };
  console.log(`medians of ${ROUNDS} alternating runs per mode`);
  row('consumer handler path, per event', (r) => r.consumerUs, 'µs');
  if (results[0].consumerDbUs !== undefined)
    row('same, in a PostgreSQL transaction', (r) => r.consumerDbUs!, 'µs');
  row('HTTP request (inject), per request', (r) => r.httpUs, 'µs');
  for (const name of Object.keys(results[0].primitivesNs)) {
    console.log(
      `${`${name}, per call`.padEnd(34)} off ${of('off', (r) => r.primitivesNs[name])
        .toFixed(0)
        .padStart(8)} ns   on ${of('on', (r) => r.primitivesNs[name])
        .toFixed(0)
        .padStart(8)} ns`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
