import { z } from 'zod';
import { vars } from './vars';

/**
 * Variables every process understands. Each app extends this with its own.
 * Infrastructure variables are optional: when they are unset the process runs
 * in embedded mode (PGlite, in-process transport, filesystem object store).
 */
export const commonEnv = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: vars.logLevel(),
  PORT: vars.port(8080),
  HOST: z.string().default('0.0.0.0'),
  /** Public base URL used in links the service hands out (signed file URLs). */
  PUBLIC_BASE_URL: vars.url().optional(),
  DATA_DIR: z.string().default('./.data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'expected a postgres:// or postgresql:// URL')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  KAFKA_BROKERS: vars.list().optional(),
  KAFKA_CLIENT_ID: z.string().optional(),
  /** Prepended to consumer group ids: environments sharing one cluster, isolated test runs. */
  KAFKA_GROUP_PREFIX: z.string().default(''),
  /** Where a new consumer group starts; true (default) so no fact published before the first deploy is missed. */
  KAFKA_FROM_BEGINNING: vars.bool(true),
  /**
   * Longest time a consumer's fetch may wait at the broker when nothing new is there. A real
   * broker answers as soon as data arrives, so this only sets how often an idle consumer asks
   * (docs/configuration.md has the idle CPU it costs); the test broker (librdkafka's mock cluster) always
   * waits this long on an empty fetch, so it adds up to this much latency per hop there (the
   * tests set 100 ms, the benches 10 ms).
   */
  KAFKA_FETCH_MAX_WAIT: vars.duration('2s'),
  /**
   * How long the broker waits without a heartbeat before it declares a consumer gone and hands its
   * partitions to the group's other members. After a broker outage a group's members rejoin only
   * once their old sessions have run out, so this is also the lag before consumption resumes.
   * Heartbeats go out during batches too (every third of it, at most 3 s): keep it above the
   * longest time the event loop may be blocked.
   */
  KAFKA_SESSION_TIMEOUT: vars.duration('10s'),
  /**
   * How often a consumer commits the offsets of the events it applied, every partition in one
   * request (0: after each applied chunk). A crash or a rebalance delivers up to this much of
   * applied events again; the inbox drops them.
   */
  KAFKA_COMMIT_INTERVAL: vars.duration('1s'),
  S3_ENDPOINT: vars.url().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_BUCKET: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: vars.bool(true),
  /** Host written into presigned URLs when clients reach S3 by another address than the service. */
  S3_PUBLIC_ENDPOINT: vars.url().optional(),
  /** Secret used to sign URLs served by the filesystem object store. */
  STORAGE_SIGNING_SECRET: z.string().min(16).optional(),
  /** Bearer token services present to each other's /internal/v1 routes (never routed publicly). */
  INTERNAL_API_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Where job-service's internal API is, for processes that do not run job-service. */
  JOB_SERVICE_URL: vars.url().optional(),
  /** Where asset-service's internal API is, for processes that do not run asset-service. */
  ASSET_SERVICE_URL: vars.url().optional(),
  /** Where generation-service's internal API (the model registry) is, for processes that do not run it. */
  GENERATION_SERVICE_URL: vars.url().optional(),
  ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Seconds the auth guard may cache a verified API key. */
  AUTH_CACHE_TTL: vars.duration('30s'),
  SHUTDOWN_GRACE: vars.duration('25s'),
  /**
   * How often the process hands the C heap's free pages back to the OS (glibc's malloc_trim;
   * libs/runtime/src/heap-trimmer.ts says why). 0 turns it off; no effect where the C library is
   * not glibc.
   */
  HEAP_TRIM_INTERVAL: vars.duration('30s'),
});

export type CommonEnv = z.infer<typeof commonEnv>;
