import { randomBytes } from 'node:crypto';
import { IDENTITY_SCHEMA } from '@genasset/identity';
import { migrate, PostgresConnection } from '@genasset/persistence';
import { runProcess, type RunningProcess, type ServiceDescriptor } from '@genasset/runtime';
import { primeConsumerGroups } from './consumer-groups';
import { createTestDatabase, type TestDatabase } from './test-database';
import { s3Env, testServices } from './test-services';
import { waitFor } from './wait-for';

export interface HarnessOptions {
  /** The services this process runs (a service's own tests pass just its descriptor). */
  services: readonly ServiceDescriptor[];
  /** `kafka` (default): the real broker; `in-process`: no broker, like embedded mode. */
  transport?: 'kafka' | 'in-process';
  /** Extra environment (e.g. WEBHOOK_RETRY_DELAYS=1s,2s). */
  env?: Record<string, string>;
}

/** A team with a project and one API key per kind of caller, for authorisation tests. */
export interface Tenant {
  teamId: string;
  projectId: string;
  /** Ready-made `Authorization` header values. */
  auth: {
    projectAdmin: string;
    projectMember: string;
    teamAdmin: string;
    /** A member key of the team carrying the scope `team.webhooks.manage`. */
    teamWebhookManager: string;
    teamMember: string;
  };
}

export interface ServiceHarness {
  /** Base URL of the running process, e.g. http://127.0.0.1:41234 */
  url: string;
  database: TestDatabase;
  /** A connection to the harness database for assertions on persisted rows. */
  db: PostgresConnection;
  adminToken: string;
  process: RunningProcess;
  /** Provisions a fresh tenant through the admin API. */
  tenant(): Promise<Tenant>;
  /** fetch against the process with JSON in and out (the body is `any`: tests assert on its shape). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  request(method: string, path: string, options?: { auth?: string; body?: unknown; headers?: Record<string, string> }): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

const basic = (key: string, secret: string) => `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;

/**
 * Runs services in this test process exactly as an app does (`runProcess`),
 * on a fresh migrated database of the real PostgreSQL, the real broker (with a
 * consumer-group prefix of its own so parallel test files never share groups)
 * and the real S3 server (the groups primed at the topics' ends); resolves once
 * `/readyz` is green (consumers joined).
 */
export async function startServiceHarness(options: HarnessOptions): Promise<ServiceHarness> {
  const services = testServices();
  const kafka = (options.transport ?? 'kafka') === 'kafka';
  const groupPrefix = `test-${randomBytes(4).toString('hex')}.`;
  // Fresh groups must neither replay other test files' facts nor skip any of this file's own.
  // KAFKA_FROM_BEGINNING=false did the first, not the second: a partition whose start offset
  // is resolved late (after a fetch error kafkajs recovers from silently, or a rebalance)
  // starts at the *latest* offset and skips what was produced meanwhile: the likely cause of
  // a CI run where a job's work never reached the worker. Offsets committed at the topics'
  // ends before the app starts give every partition an exact start; priming runs alongside
  // the database setup.
  const setUpDatabase = async () => {
    const database = await createTestDatabase('harness');
    const db = new PostgresConnection(database.url, { poolSize: 4 });
    for (const definition of [IDENTITY_SCHEMA, ...options.services.map((s) => s.schema)]) await migrate(db, definition);
    return { database, db };
  };
  const groups = options.services.map((s) => `${groupPrefix}${s.name}`);
  const [{ database, db }] = await Promise.all([
    setUpDatabase(),
    kafka ? primeConsumerGroups(services.kafkaBrokers, groups) : undefined,
  ]);
  const adminToken = `adm_${randomBytes(18).toString('base64url')}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.HARNESS_LOG_LEVEL ?? 'warn',
    DATABASE_URL: database.url,
    DATABASE_POOL_SIZE: '8',
    KAFKA_BROKERS: kafka ? services.kafkaBrokers.join(',') : '',
    // Consumer groups are named after the consuming service (KAFKA_GROUP_PREFIX + name).
    KAFKA_GROUP_PREFIX: groupPrefix,
    ...s3Env(services.s3),
    ADMIN_TOKEN: adminToken,
    SHUTDOWN_GRACE: '10s',
    ...options.env,
  };
  const running = await runProcess({
    name: options.services.map((s) => s.name).join('+'),
    description: 'test harness',
    services: options.services,
    adminApi: true,
    env,
    handleSignals: false,
  });
  const url = running.url.replace('0.0.0.0', '127.0.0.1');
  await waitFor(async () => (await fetch(`${url}/readyz`)).ok, { timeoutMs: 60_000, intervalMs: 100, what: 'harness /readyz' });

  const request: ServiceHarness['request'] = async (method, path, opts = {}) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(opts.auth ? { authorization: opts.auth } : {}),
        ...opts.headers,
      },
      body: opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body, headers: response.headers };
  };

  const admin = async (path: string, body: unknown) => {
    const res = await request('POST', `/admin/v1/${path}`, { auth: `Bearer ${adminToken}`, body });
    if (res.status !== 200) throw new Error(`admin ${path} failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const key = async (body: object) => {
    const issued = (await admin('api-keys', body)) as { apiKey: string; apiSecret: string };
    return basic(issued.apiKey, issued.apiSecret);
  };

  return {
    url,
    database,
    db,
    adminToken,
    process: running,
    request,
    async tenant() {
      const { team } = (await admin('teams', { name: `team-${randomBytes(3).toString('hex')}` })) as { team: { id: string } };
      const { project } = (await admin(`teams/${team.id}/projects`, { name: 'project' })) as { project: { id: string } };
      return {
        teamId: team.id,
        projectId: project.id,
        auth: {
          projectAdmin: await key({ teamId: team.id, projectId: project.id, role: 'admin' }),
          projectMember: await key({ teamId: team.id, projectId: project.id, role: 'member' }),
          teamAdmin: await key({ teamId: team.id, role: 'admin' }),
          teamWebhookManager: await key({ teamId: team.id, role: 'member', scopes: ['team.webhooks.manage'] }),
          teamMember: await key({ teamId: team.id, role: 'member' }),
        },
      };
    },
    async close() {
      await running.shutdown();
      await db.close();
      await database.drop();
    },
  };
}
