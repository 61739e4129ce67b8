/**
 * deploy/compose, checked statically (no Docker engine here): the services,
 * their build and dependency graph, one-shot jobs, health checks and the
 * environment each app gets. The gateway's routing runs under nginx itself: gateway.spec.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { IMAGES, workspaceApps } from './images';
import { knownEnvironmentVariables, REPO_ROOT, schemaNames, SERVICE_SCHEMAS } from './support/workspace';

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string; target?: string; args?: Record<string, string> };
  command?: string[];
  environment?: Record<string, string | number | boolean | null>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  restart?: string;
  ports?: string[];
  read_only?: boolean;
  stop_grace_period?: string;
  profiles?: string[];
}

/** Compose's variable interpolation with nothing set: `${VAR:-default}` → default, `$$` → `$`. */
function interpolate<T>(value: T, env: Record<string, string> = {}): T {
  if (typeof value === 'string') {
    return value.replace(
      /\$\$|\$\{(\w+)(?:(:?)([-?])([^}]*))?\}/g,
      (whole, name?: string, colon?: string, op?: string, arg?: string) => {
        if (whole === '$$') return '$';
        const set = env[name!];
        const missing = set === undefined || (colon === ':' && set === '');
        if (!missing) return set;
        if (op === '?') throw new Error(`compose.yaml: ${name} is required (${arg})`);
        return op === '-' ? arg! : '';
      },
    ) as T;
  }
  if (Array.isArray(value)) return value.map((v) => interpolate(v, env)) as T;
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, env)])) as T;
  return value;
}

const dir = join(REPO_ROOT, 'deploy/compose');
const raw = parse(readFileSync(join(dir, 'compose.yaml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
};
const compose = interpolate(raw);
const services = compose.services;
const apps = workspaceApps().filter((a) => a !== 'platform' && a !== 'cli');
const jobs = Object.entries(services).filter(([, s]) => s.restart === 'no' && !s.profiles);

describe('compose stack', () => {
  it('runs every service app, the infrastructure, the jobs and a gateway', () => {
    for (const name of [...apps, 'postgres', 'kafka', 'minio', 'minio-bucket', 'topics', 'gateway'])
      expect(Object.keys(services)).toContain(name);
    expect(services.kafka.image).toMatch(/^apache\/kafka:3\.9/);
    expect(services.kafka.environment?.KAFKA_PROCESS_ROLES).toBe('broker,controller');
    expect(services.postgres.image).toBe('postgres:16');
    // The operator cli is there for `docker compose run`, not for `up`.
    expect(services.cli.profiles).toEqual(['tools']);
    expect(services.cli.environment?.GENASSET_URL).toBe('http://gateway:8081');
    // The jobs run the cli image, built from the one Dockerfile's cli target.
    expect(services.cli.build).toMatchObject({
      dockerfile: 'docker/Dockerfile',
      target: IMAGES.cli.target,
      args: { APP: 'cli' },
    });
    for (const [name, job] of jobs.filter(([, s]) => s.build))
      expect([name, job.build]).toEqual([name, services.cli.build]);
  });

  it('every service has an image or a build of a Dockerfile that exists', () => {
    for (const [name, service] of Object.entries(services)) {
      expect([name, Boolean(service.image || service.build)]).toEqual([name, true]);
      if (service.build) {
        expect(join(dir, service.build.context)).toBe(REPO_ROOT);
        expect([name, existsSync(join(REPO_ROOT, service.build.dockerfile))]).toEqual([name, true]);
      }
      if (service.image) expect([name, service.image]).not.toEqual([name, expect.stringMatching(/:latest$/)]);
    }
  });

  it('dependencies exist, use a valid condition and have no cycle', () => {
    const conditions = ['service_started', 'service_healthy', 'service_completed_successfully'];
    for (const [name, service] of Object.entries(services)) {
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect([name, dependency, Boolean(services[dependency])]).toEqual([name, dependency, true]);
        expect(conditions).toContain(condition);
        if (condition === 'service_healthy')
          expect([
            dependency,
            Boolean(services[dependency].healthcheck || services[dependency].build),
          ]).toEqual([dependency, true]);
        if (condition === 'service_completed_successfully')
          expect([dependency, services[dependency].restart]).toEqual([dependency, 'no']);
      }
    }
    const visiting = new Set<string>();
    const done = new Set<string>();
    const visit = (name: string, path: string[]) => {
      if (done.has(name)) return;
      if (visiting.has(name)) throw new Error(`dependency cycle: ${[...path, name].join(' → ')}`);
      visiting.add(name);
      for (const dependency of Object.keys(services[name].depends_on ?? {}))
        visit(dependency, [...path, name]);
      visiting.delete(name);
      done.add(name);
    };
    for (const name of Object.keys(services)) visit(name, []);
  });

  it('has one migration job per schema, identity first, and a topics job', () => {
    expect(schemaNames()).toEqual([...Object.values(SERVICE_SCHEMAS), 'identity'].sort());
    for (const schema of schemaNames()) {
      const job = services[`migrate-${schema}`];
      expect([schema, job?.command]).toEqual([schema, ['migrate', '--only', schema]]);
      expect(job.restart).toBe('no');
      expect(job.environment?.DATABASE_URL).toMatch(/^postgres:\/\//);
      if (schema !== 'identity')
        expect(job.depends_on?.['migrate-identity']?.condition).toBe('service_completed_successfully');
    }
    expect(services.topics.command?.slice(0, 2)).toEqual(['topics', 'create']);
    expect(jobs.map(([name]) => name).sort()).toEqual(
      [...schemaNames().map((s) => `migrate-${s}`), 'minio-bucket', 'topics'].sort(),
    );
  });

  it.each(apps)(
    '%s waits for its migration, the topics and the bucket, and has a readiness health check',
    (app) => {
      const service = services[app];
      expect(service.depends_on?.[`migrate-${SERVICE_SCHEMAS[app]}`]?.condition).toBe(
        'service_completed_successfully',
      );
      expect(service.depends_on?.topics?.condition).toBe('service_completed_successfully');
      expect(service.depends_on?.['minio-bucket']?.condition).toBe('service_completed_successfully');
      expect(service.healthcheck?.test.join(' ')).toContain('/readyz');
      expect(service.build).toMatchObject({
        dockerfile: 'docker/Dockerfile',
        target: 'service',
        args: { APP: app },
      });
      expect(service.ports ?? []).toEqual([]);
      expect(service.read_only).toBe(true);
      expect(service.stop_grace_period).toBe('30s');
    },
  );

  it.each(apps)('%s gets only variables the code reads, production mode and its own secrets', (app) => {
    const known = knownEnvironmentVariables();
    const env = services[app].environment ?? {};
    expect(Object.keys(env).filter((name) => !known.has(name))).toEqual([]);
    expect(env.NODE_ENV).toBe('production');
    for (const name of ['DATABASE_URL', 'KAFKA_BROKERS', 'S3_ENDPOINT', 'S3_BUCKET', 'INTERNAL_API_TOKEN'])
      expect([app, name, Boolean(env[name])]).toEqual([app, name, true]);
    expect('ADMIN_TOKEN' in env).toBe(app === 'job-service');
    expect('WEBHOOK_SECRET_KEY' in env).toBe(app === 'webhook-dispatcher');
    if (app === 'webhook-dispatcher') {
      expect(env.WEBHOOK_ALLOW_HTTP).toBe('false');
      expect(env.WEBHOOK_ALLOW_PRIVATE_TARGETS).toBe('false');
      expect(Buffer.from(String(env.WEBHOOK_SECRET_KEY), 'base64')).toHaveLength(32);
      // Compose variables override the local-only defaults.
      expect(
        interpolate(raw.services[app].environment, { WEBHOOK_ALLOW_HTTP: 'true' })?.WEBHOOK_ALLOW_HTTP,
      ).toBe('true');
    }
    for (const url of ['JOB_SERVICE_URL', 'ASSET_SERVICE_URL', 'GENERATION_SERVICE_URL']) {
      expect(String(env[url])).toMatch(new RegExp(`^http://(${apps.join('|')}):8080$`));
    }
  });

  it('publishes only the gateway (admin side on loopback) and MinIO for presigned URLs', () => {
    const published = Object.entries(services).filter(([, s]) => s.ports?.length);
    expect(published.map(([name]) => name).sort()).toEqual(['gateway', 'minio']);
    expect(services.gateway.ports).toEqual(['8080:8080', '127.0.0.1:8081:8081']);
    expect(interpolate(raw.services.gateway.ports, { GATEWAY_ADMIN_PORT: '9091' })).toEqual([
      '8080:8080',
      '127.0.0.1:9091:8081',
    ]);
  });
});
