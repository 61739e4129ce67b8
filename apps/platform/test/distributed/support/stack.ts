import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import {
  createTestDatabase,
  freePort,
  primeConsumerGroups,
  s3Env,
  spawnTsProcess,
  testServices,
  waitFor,
  type SpawnedProcess,
  type TestDatabase,
} from '@genasset/testing';
import { startGateway, type Gateway } from './gateway';

const REPO_ROOT = resolve(__dirname, '../../../../..');

/** Every app of the distributed deployment; `replicas` of each run behind the gateway. */
export const APPS = {
  'asset-service': { entry: 'apps/asset-service/src/main.ts', upstream: 'asset_service' },
  'collection-service': { entry: 'apps/collection-service/src/main.ts', upstream: 'collection_service' },
  'generation-service': { entry: 'apps/generation-service/src/main.ts', upstream: 'generation_service' },
  'job-service': { entry: 'apps/job-service/src/main.ts', upstream: 'job_service' },
  'inference-worker': { entry: 'apps/inference-worker/src/main.ts', upstream: 'inference_worker' },
  'webhook-dispatcher': { entry: 'apps/webhook-dispatcher/src/main.ts', upstream: 'webhook_dispatcher' },
} as const;
export type AppName = keyof typeof APPS;

export interface Instance {
  app: AppName;
  /** `webhook-dispatcher#2` for the second replica. */
  label: string;
  port: number;
  url: string;
  proc: SpawnedProcess;
}

export interface Tenant {
  teamId: string;
  projectId: string;
  /** Basic auth header values. */
  admin: string;
  member: string;
}

export interface Response {
  status: number;
  body: any;
}

export interface Stack {
  gateway: Gateway;
  instances: Instance[];
  database: TestDatabase;
  adminToken: string;
  /** fetch through the gateway's public side, JSON in and out. */
  request(method: string, path: string, options?: { auth?: string; body?: unknown }): Promise<Response>;
  /** POST on the gateway's operator side (/admin/v1/...). */
  admin(path: string, body: unknown): Promise<Response>;
  tenant(): Promise<Tenant>;
  /** One query on the stack's database, on a connection of its own (survives PostgreSQL restarts). */
  sql<T>(text: string, values?: unknown[]): Promise<T[]>;
  /** Every instance's /readyz answers 200. */
  allReady(): Promise<boolean>;
  /** stdout + exit state of every instance, for failure messages. */
  diagnostics(): string;
  stop(): Promise<void>;
}

const basic = (key: string, secret: string) => `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;

/**
 * The distributed deployment on one machine, wired the way deploy/compose wires it: each app
 * its own OS process started by its real entry point, services calling each other over their
 * internal APIs (JOB_SERVICE_URL, ASSET_SERVICE_URL, GENERATION_SERVICE_URL with
 * INTERNAL_API_TOKEN), a fresh database migrated by the CLI as the migration jobs do, the test
 * broker and S3 server, and nginx in front with the Compose gateway's routes.
 */
export async function startStack(
  options: { replicas?: Partial<Record<AppName, number>>; env?: Record<string, string>; readyTimeoutMs?: number } = {},
): Promise<Stack> {
  const services = testServices();
  const database = await createTestDatabase('distributed');
  await promisify(execFile)(process.execPath, ['-r', '@swc-node/register', 'apps/cli/src/main.ts', 'migrate'], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'warn' },
  });

  const plan: { app: AppName; label: string; port: number }[] = [];
  for (const app of Object.keys(APPS) as AppName[]) {
    const replicas = options.replicas?.[app] ?? 1;
    for (let i = 1; i <= replicas; i++) plan.push({ app, label: i === 1 ? app : `${app}#${i}`, port: await freePort() });
  }
  const groupPrefix = `dist-${randomBytes(4).toString('hex')}.`;
  // Consumer groups are named after the consuming service (KAFKA_GROUP_PREFIX + name).
  await primeConsumerGroups(services.kafkaBrokers, Object.keys(APPS).map((app) => `${groupPrefix}${app}`));
  const urlOf = (app: AppName) => `http://127.0.0.1:${plan.find((p) => p.app === app)!.port}`;
  const adminToken = `adm_${randomBytes(18).toString('base64url')}`;
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    DATABASE_URL: database.url,
    DATABASE_POOL_SIZE: '5',
    KAFKA_BROKERS: services.kafkaBrokers.join(','),
    // Groups of their own, their offsets committed at the topics' ends (primeConsumerGroups),
    // so KAFKA_FROM_BEGINNING keeps its production default.
    KAFKA_GROUP_PREFIX: groupPrefix,
    KAFKAJS_NO_PARTITIONER_WARNING: '1',
    ...s3Env(services.s3),
    S3_FORCE_PATH_STYLE: 'true',
    INTERNAL_API_TOKEN: `int_${randomBytes(18).toString('base64url')}`,
    JOB_SERVICE_URL: urlOf('job-service'),
    ASSET_SERVICE_URL: urlOf('asset-service'),
    GENERATION_SERVICE_URL: urlOf('generation-service'),
    SHUTDOWN_GRACE: '10s',
    // The same key on every dispatcher replica, as in production.
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_POLL_INTERVAL: '200ms',
    GENERATION_RESULT_WAIT: '0',
    INFERENCE_POLL_INTERVAL: '200ms',
    INFERENCE_RETRY_DELAY: '500ms',
    INFERENCE_PROGRESS_INTERVAL: '0',
    ASSET_DOWNLOAD_POLL_INTERVAL: '500ms',
    ...options.env,
  };
  const stderr = new Map<string, string>();
  const instances: Instance[] = plan.map(({ app, label, port }) => {
    const proc = spawnTsProcess(APPS[app].entry, {
      ...env,
      PORT: String(port),
      ...(app === 'job-service' ? { ADMIN_TOKEN: adminToken } : {}),
    });
    stderr.set(label, '');
    proc.child.stderr!.on('data', (chunk: Buffer) => stderr.set(label, (stderr.get(label)! + chunk.toString()).slice(-20_000)));
    return { app, label, port, url: `http://127.0.0.1:${port}`, proc };
  });

  const dir = mkdtempSync(join(tmpdir(), 'genasset-gateway-'));
  let gateway: Gateway | undefined;
  const readyz = async (i: Instance) => {
    if (i.proc.child.exitCode !== null || i.proc.child.signalCode !== null) return false;
    return (await fetch(`${i.url}/readyz`, { signal: AbortSignal.timeout(5_000) })).ok;
  };
  const diagnostics = () =>
    instances
      .map((i) => {
        const { exitCode, signalCode } = i.proc.child;
        // A process that died gets its whole last words (the stack trace), the others a tail.
        const tail = (text: string) => text.split('\n').slice(exitCode === null && signalCode === null ? -15 : -80).join('\n');
        return `--- ${i.label} (pid ${i.proc.child.pid}, exit ${exitCode ?? signalCode ?? 'running'})\n${tail(i.proc.output())}\n${tail(stderr.get(i.label) ?? '')}`;
      })
      .join('\n');
  const stop = async () => {
    await gateway?.stop();
    await Promise.all(instances.map((i) => i.proc.kill('SIGTERM')));
    rmSync(dir, { recursive: true, force: true });
    await database.drop().catch(() => undefined);
  };

  try {
    // Seven Node processes compiling TypeScript on start, on 2 shared cores: minutes, not seconds, when loaded.
    const deadline = Date.now() + (options.readyTimeoutMs ?? 480_000);
    for (const instance of instances) {
      await waitFor(() => readyz(instance), { timeoutMs: Math.max(1_000, deadline - Date.now()), intervalMs: 250, what: `${instance.label} /readyz` }).catch(
        (error: Error) => {
          throw new Error(`${error.message}\n${diagnostics()}`);
        },
      );
    }
    const upstreams: Record<string, number[]> = {};
    for (const i of instances) {
      const upstream = APPS[i.app].upstream;
      if (upstream) (upstreams[upstream] ??= []).push(i.port);
    }
    gateway = await startGateway(dir, upstreams);
  } catch (error) {
    await stop();
    throw error;
  }

  const call = async (base: string, method: string, path: string, opts: { auth?: string; body?: unknown } = {}): Promise<Response> => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(opts.auth ? { authorization: opts.auth } : {}),
      },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body };
  };
  const gw = gateway;
  const admin = (path: string, body: unknown) =>
    call(gw.adminUrl, 'POST', `/admin/v1/${path}`, { auth: `Bearer ${adminToken}`, body });
  const adminOk = async (path: string, body: unknown) => {
    const res = await admin(path, body);
    if (res.status !== 200) throw new Error(`admin ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const key = async (body: object) => {
    const issued = (await adminOk('api-keys', body)) as { apiKey: string; apiSecret: string };
    return basic(issued.apiKey, issued.apiSecret);
  };

  return {
    gateway: gw,
    instances,
    database,
    adminToken,
    request: (method, path, opts) => call(gw.url, method, path, opts),
    admin,
    async tenant() {
      const { team } = (await adminOk('teams', { name: `dist-${randomBytes(3).toString('hex')}` })) as { team: { id: string } };
      const { project } = (await adminOk(`teams/${team.id}/projects`, { name: 'distributed' })) as { project: { id: string } };
      return {
        teamId: team.id,
        projectId: project.id,
        admin: await key({ teamId: team.id, projectId: project.id, role: 'admin' }),
        member: await key({ teamId: team.id, projectId: project.id, role: 'member' }),
      };
    },
    async sql<T>(text: string, values: unknown[] = []) {
      const client = new Client({ connectionString: database.url });
      await client.connect();
      try {
        return (await client.query(text, values)).rows as T[];
      } finally {
        await client.end();
      }
    },
    async allReady() {
      const live = instances.filter((i) => i.proc.child.exitCode === null && i.proc.child.signalCode === null);
      const results = await Promise.all(live.map((i) => readyz(i).catch(() => false)));
      return results.every(Boolean);
    },
    diagnostics,
    stop,
  };
}
