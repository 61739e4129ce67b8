import { randomBytes } from 'node:crypto';
import { migrate, PostgresConnection } from '@genasset/persistence';
import { ALL_SCHEMAS } from '@genasset/service-catalog';
import { createTestDatabase, freePort, s3Env, testServices, waitFor, type SpawnedProcess, type TestDatabase } from '@genasset/testing';
import { APPS, startStack, type AppName } from '../../apps/platform/test/distributed/support/stack';
import { spawnPlatform } from './platform';

/** Which processes count as the platform, by name (CPU per job is printed for each). */
export type ProcessGroups = Record<string, (commandLine: string, pid: number) => boolean>;

/** The platform under test, however it is deployed: where to call it and which processes are it. */
export interface Deployment {
  /** The public API (`/v1/...`). */
  publicUrl: string;
  /** Where `/admin/v1/...` answers, with `Bearer <adminToken>`. */
  adminUrl: string;
  adminToken: string;
  database: TestDatabase;
  /** The platform's processes: one entry (`platform`) or one per service. */
  groups: ProcessGroups;
  /** The platform's output (warnings, errors), for BENCH_LOG. */
  log(): string;
  stop(): Promise<void>;
}

/**
 * BENCH_TOPOLOGY=platform (default): apps/platform, every service in one process in
 * distributed mode. `services`: every service its own process behind the Compose gateway
 * (nginx), as deploy/compose runs them and as ops scale them; the distributed test's stack.
 * `in-process`: apps/platform on the same PostgreSQL and S3 without KAFKA_BROKERS, so events
 * go through the in-process transport (outbox and inbox unchanged): a single-node deployment
 * without Kafka, and the platform's own cost without the test broker's (README.md).
 * `env` is what the bench sets on top (fetch wait, worker concurrency, backends file).
 */
export async function startDeployment(topology: string, env: Record<string, string>): Promise<Deployment> {
  if (topology === 'services') return startServices(env);
  if (topology === 'in-process') return startPlatform(env, { kafka: false });
  if (topology !== 'platform') throw new Error(`BENCH_TOPOLOGY: platform, services or in-process, not ${topology}`);
  return startPlatform(env, { kafka: true });
}

async function startPlatform(env: Record<string, string>, { kafka }: { kafka: boolean }): Promise<Deployment> {
  const services = testServices();
  const database = await createTestDatabase('bench_generation');
  const db = new PostgresConnection(database.url, { poolSize: 1 });
  try {
    for (const schema of ALL_SCHEMAS) await migrate(db, schema);
  } finally {
    await db.close();
  }
  const adminToken = `adm_${randomBytes(18).toString('base64url')}`;
  const port = await freePort();
  const platform: SpawnedProcess = spawnPlatform({
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: database.url,
    DATABASE_POOL_SIZE: '16',
    ...(kafka
      ? {
          KAFKA_BROKERS: services.kafkaBrokers.join(','),
          KAFKA_GROUP_PREFIX: `bench-${randomBytes(4).toString('hex')}.`,
          KAFKA_FROM_BEGINNING: 'false',
          KAFKAJS_NO_PARTITIONER_WARNING: '1',
        }
      : // Set empty, not left out: the child inherits the bench's environment, which names the test broker.
        { KAFKA_BROKERS: '' }),
    ...s3Env(services.s3),
    ADMIN_TOKEN: adminToken,
    INTERNAL_API_TOKEN: `int_${randomBytes(18).toString('base64url')}`,
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    ...env,
  });
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await platform.kill('SIGTERM');
    await database.drop().catch((error: unknown) => console.error(`could not drop ${database.name}: ${String(error)}`));
  };
  try {
    await waitFor(async () => (await fetch(`${base}/readyz`).catch(() => undefined))?.ok === true, {
      timeoutMs: 180_000,
      intervalMs: 250,
      what: 'platform /readyz',
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    publicUrl: base,
    adminUrl: base,
    adminToken,
    database,
    groups: { platform: (_cmd, pid) => pid === platform.child.pid },
    log: () => platform.output(),
    stop,
  };
}

async function startServices(env: Record<string, string>): Promise<Deployment> {
  // The stack's settings are the distributed test's; the bench's own replace them, in production mode.
  const stack = await startStack({
    env: {
      NODE_ENV: 'production',
      WEBHOOK_POLL_INTERVAL: '1s',
      INFERENCE_POLL_INTERVAL: '1s',
      ...env,
    },
  });
  const pidOf = (app: AppName) => stack.instances.find((i) => i.app === app)!.proc.child.pid;
  const groups: ProcessGroups = Object.fromEntries(
    (Object.keys(APPS) as AppName[]).map((app) => [app, (_cmd: string, pid: number) => pid === pidOf(app)]),
  );
  // nginx names its processes "nginx: master process …", "nginx: worker process": every nginx here.
  groups.gateway = (cmd) => cmd.startsWith('nginx: ');
  return {
    publicUrl: stack.gateway.url,
    adminUrl: stack.gateway.adminUrl,
    adminToken: stack.adminToken,
    database: stack.database,
    groups,
    log: () => stack.diagnostics(),
    stop: () => stack.stop(),
  };
}
