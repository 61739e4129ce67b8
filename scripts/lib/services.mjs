import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { startContainers } from './containers.mjs';
import { findPostgresBin } from './install.mjs';
import { startKafkaMock } from './kafka-mock.mjs';
import { info, seconds, warn } from './log.mjs';
import { createDatabase, dropDatabase, startPostgres } from './postgres.mjs';
import { createRunDir, reapStaleRuns, removeRunDir } from './run-dir.mjs';
import { startS3rver } from './s3rver.mjs';
import { onTeardown } from './teardown.mjs';
import { listTopics } from './topics.mjs';

const BUCKET = 'genasset-test';
const PARTITIONS = 6;
const BROKERS = 3;
const GIVEN = ['TEST_DATABASE_URL', 'KAFKA_BROKERS', 'S3_ENDPOINT'];

/**
 * external: the caller's own services (all of TEST_DATABASE_URL, KAFKA_BROKERS, S3_ENDPOINT set);
 * docker: testcontainers; local: processes (no Docker, as on CI). TEST_SERVICES=local|docker forces one.
 */
export function chooseServiceMode(env = process.env) {
  const given = GIVEN.filter((k) => env[k]);
  if (given.length === GIVEN.length) return 'external';
  if (given.length)
    warn(
      `only ${given.join(', ')} set (all of ${GIVEN.join(', ')} are needed to use your own services); starting fresh ones`,
    );
  if (env.TEST_SERVICES === 'local' || env.TEST_SERVICES === 'docker') return env.TEST_SERVICES;
  return spawnSync('docker', ['info'], { stdio: 'ignore', timeout: 20_000 }).status === 0
    ? 'docker'
    : 'local';
}

/** Starts (or adopts) the services and returns the environment the checks and tests run with. */
export async function startServices(mode) {
  const common = {
    S3_REGION: 'us-east-1',
    S3_FORCE_PATH_STYLE: 'true',
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    NODE_ENV: 'test',
    // The test broker holds an empty fetch for the full wait even when data arrives (the default,
    // 1 s, would add up to 1 s per event hop); tools/jest/integration-setup.js sets the same.
    KAFKA_FETCH_MAX_WAIT: '100ms',
  };
  if (mode === 'external') return { ...common, ...(await adoptExternal()) };
  if (mode === 'docker') {
    const topics = await listTopics();
    const services = await startContainers(
      { topics, partitions: PARTITIONS, bucket: BUCKET },
      (stop, image) => onTeardown(`stop ${image}`, stop),
    );
    await createDatabase(services.postgresUrl('postgres'), 'genasset');
    return {
      ...common,
      TEST_DATABASE_URL: services.postgresUrl('postgres'),
      DATABASE_URL: services.postgresUrl('genasset'),
      KAFKA_BROKERS: services.kafkaBrokers,
      KAFKA_MOCK_CONTROL: undefined,
      TEST_PG_CTL: undefined,
      ...s3Env(services.s3),
    };
  }
  return { ...common, ...(await startLocal()) };
}

async function startLocal() {
  await reapStaleRuns();
  const runDir = createRunDir();
  onTeardown(`remove ${runDir}`, () => removeRunDir(runDir));
  info(`run directory ${runDir} (service logs)`);

  const timed = async (what, start) => {
    const since = Date.now();
    const result = await start();
    info(`${what(result)} (${seconds(since)})`);
    return result;
  };
  // In parallel, but settled one by one: each registers its teardown as soon as
  // it runs, so one failing never leaves another one running unowned.
  const settled = await Promise.allSettled([
    timed(
      (pg) => `postgres on 127.0.0.1:${pg.port}`,
      () => startPostgres(runDir, findPostgresBin(), (stop) => onTeardown('stop postgres', stop)),
    ),
    timed(
      (kafka) => `kafka-mock (${BROKERS} brokers, ${PARTITIONS} partitions) on ${kafka.brokers}`,
      async () =>
        startKafkaMock(runDir, await listTopics(), { brokers: BROKERS, partitions: PARTITIONS }, (stop) =>
          onTeardown('stop kafka-mock', stop),
        ),
    ),
    timed(
      (s3) => `s3rver on ${s3.endpoint}, bucket ${BUCKET}`,
      () => startS3rver(runDir, BUCKET, (stop) => onTeardown('stop s3rver', stop)),
    ),
  ]);
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
  const [pg, kafka, s3] = settled.map((s) => s.value);
  await createDatabase(pg.url('postgres'), 'genasset');
  return {
    TEST_DATABASE_URL: pg.url('postgres'),
    DATABASE_URL: pg.url('genasset'),
    KAFKA_BROKERS: kafka.brokers,
    KAFKA_MOCK_CONTROL: kafka.control,
    // The distributed drills restart this PostgreSQL (pg_ctl restart: same data directory and port).
    TEST_PG_CTL: pg.control.pgCtl,
    TEST_PG_DATA: pg.control.data,
    TEST_PG_LOG: pg.control.log,
    TEST_PG_USER: pg.control.runAs,
    ...s3Env(s3),
  };
}

/** The caller's servers are used as they are; only a migrate-smoke database is added, and dropped after. */
async function adoptExternal() {
  const env = process.env;
  info(
    `using TEST_DATABASE_URL, KAFKA_BROKERS=${env.KAFKA_BROKERS}, S3_ENDPOINT=${env.S3_ENDPOINT} from the environment`,
  );
  let databaseUrl = env.DATABASE_URL;
  if (!databaseUrl) {
    const name = `genasset_smoke_${randomBytes(4).toString('hex')}`;
    await createDatabase(env.TEST_DATABASE_URL, name);
    onTeardown(`drop database ${name}`, () => dropDatabase(env.TEST_DATABASE_URL, name));
    const url = new URL(env.TEST_DATABASE_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
  }
  return {
    DATABASE_URL: databaseUrl,
    S3_REGION: env.S3_REGION ?? 'us-east-1',
    S3_ACCESS_KEY_ID: env.S3_ACCESS_KEY_ID ?? 'S3RVER',
    S3_SECRET_ACCESS_KEY: env.S3_SECRET_ACCESS_KEY ?? 'S3RVER',
    S3_BUCKET: env.S3_BUCKET ?? BUCKET,
  };
}

function s3Env({ endpoint, accessKeyId, secretAccessKey }) {
  return {
    S3_ENDPOINT: endpoint,
    S3_ACCESS_KEY_ID: accessKeyId,
    S3_SECRET_ACCESS_KEY: secretAccessKey,
    S3_BUCKET: BUCKET,
  };
}
