import { randomBytes } from 'node:crypto';
import { migrate } from '@genasset/persistence';
import {
  freePort,
  primeConsumerGroups,
  s3Env,
  spawnTsProcess,
  testServices,
  waitFor,
  type SpawnedProcess,
  type Tenant,
} from '@genasset/testing';
import { INFERENCE_SCHEMA, INFERENCE_SERVICE } from '../../src';
import { startInferenceHarness, type InferenceHarness } from './inference-harness';

/**
 * An inference-worker as its own OS process, wired to the harness's database, broker, S3 and
 * peers, for the crash drills that SIGKILL it: a 3 s lease (a killed worker's job is taken over
 * 3 s after its last renewal), 200 ms polls, no preview engine. Resolves once `/readyz` is 200.
 * The process is pushed onto `spawned` before that, so a worker that never gets ready is still
 * stopped by the spec's cleanup.
 */
export async function startWorkerProcess(
  harness: InferenceHarness,
  options: { groupPrefix: string; spawned: SpawnedProcess[]; env: Record<string, string> },
): Promise<{ child: SpawnedProcess; url: string }> {
  const port = await freePort();
  const child = spawnTsProcess('apps/inference-worker/src/main.ts', {
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATABASE_URL: harness.database.url,
    KAFKA_BROKERS: testServices().kafkaBrokers.join(','),
    KAFKA_GROUP_PREFIX: options.groupPrefix,
    KAFKAJS_NO_PARTITIONER_WARNING: '1',
    // A SIGKILLed worker never leaves its consumer group: the next one is ready only once the dead
    // member's session has run out (the default 10 s, twice per drill).
    KAFKA_SESSION_TIMEOUT: '3s',
    ...s3Env(testServices().s3),
    ASSET_SERVICE_URL: harness.url,
    JOB_SERVICE_URL: harness.url,
    GENERATION_SERVICE_URL: harness.url,
    INTERNAL_API_TOKEN: harness.internalToken,
    INFERENCE_PREVIEW: 'off',
    INFERENCE_LEASE: '3s',
    INFERENCE_POLL_INTERVAL: '200ms',
    INFERENCE_PROGRESS_INTERVAL: '0',
    ...options.env,
  });
  options.spawned.push(child);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(`${url}/readyz`).catch(() => undefined))?.ok, {
    timeoutMs: 120_000,
    intervalMs: 250,
    what: 'the inference-worker process /readyz',
  });
  return { child, url };
}

/** A crash drill's set-up: job-, asset- and generation-service in the test process, workers as processes of their own. */
export interface CrashDrill {
  harness: InferenceHarness;
  tenant: Tenant;
  /** Starts a worker process with `env` (the backends file and what else the drill needs); resolves once it is ready. */
  worker(env: Record<string, string>): Promise<{ child: SpawnedProcess; url: string }>;
  /** SIGKILLs every worker started, then stops the harness. */
  close(): Promise<void>;
}

/**
 * The harness without a worker, the inference schema migrated and the worker's consumer group
 * (prefixed `<name>-<random>.`, so drills never share one) primed, and a tenant: what every crash
 * drill that SIGKILLs worker processes starts from.
 */
export async function startCrashDrill(name: string): Promise<CrashDrill> {
  const groupPrefix = `${name}-${randomBytes(4).toString('hex')}.`;
  const spawned: SpawnedProcess[] = [];
  const harness = await startInferenceHarness({ worker: false });
  try {
    await migrate(harness.db, INFERENCE_SCHEMA);
    await primeConsumerGroups(testServices().kafkaBrokers, [`${groupPrefix}${INFERENCE_SERVICE}`]);
    const tenant = await harness.tenant();
    return {
      harness,
      tenant,
      worker: (env) => startWorkerProcess(harness, { groupPrefix, spawned, env }),
      async close() {
        await Promise.all(spawned.map((w) => w.kill('SIGKILL')));
        await harness.close();
      },
    };
  } catch (error) {
    await harness.close();
    throw error;
  }
}
