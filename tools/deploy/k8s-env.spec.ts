/**
 * deploy/k8s, offline: every variable an app needs to run distributed in production is given to its
 * container (ConfigMap and Secrets through `envFrom`, or `env`), every `configMapKeyRef` names a key the
 * ConfigMap has, the values the manifests spell out parse with the apps' own schemas, and the port
 * the app listens on (the image's `PORT`) is the container port the probes use.
 *
 * "Needs" is read from the code where it can be: the internal APIs a service calls (`@Inject(X_API)` in
 * its library) and does not provide itself (`provides` in apps/<app>/src/main.ts) need their
 * `*_SERVICE_URL`; `adminApi: true` needs `ADMIN_TOKEN`. The rest is distributed mode itself: without
 * `DATABASE_URL` a process silently runs an embedded PGlite under DATA_DIR, without `KAFKA_BROKERS` it
 * keeps events in-process, without `S3_BUCKET` it writes files under DATA_DIR — all of which start and
 * report ready, so only a check like this one catches the omission before production does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { commonEnv, loadConfig, z } from '@genasset/config';
import { downloadsEnv } from '../../libs/services/asset/src/downloads/downloads.settings';
import { uploadsEnv } from '../../libs/services/asset/src/uploads/uploads.settings';
import { generationEnv } from '../../libs/services/generation/src/generation.config';
import { inferenceEnv } from '../../libs/services/inference/src/inference.config';
import { creditsEnv } from '../../libs/services/job/src/credits/credits.config';
import { webhookEnv } from '../../libs/services/webhook/src/webhook.config';
import { DOCKERFILE, IMAGES, workspaceApps } from './images';
import { imageStages, parseDockerfile } from './support/dockerfile';
import { readYamlDocuments, renderKustomization, type K8sObject } from './support/kustomize';
import { REPO_ROOT, SERVICE_SCHEMAS } from './support/workspace';

const K8S = join(REPO_ROOT, 'deploy/k8s');
const services = workspaceApps().filter((a) => a !== 'platform' && a !== 'cli');

/** Internal API token → the variable naming its owner's URL (libs/internal-api/src/internal-api.module.ts). */
const API_URL_VARIABLE: Record<string, string> = {
  JOBS_API: 'JOB_SERVICE_URL',
  ASSETS_API: 'ASSET_SERVICE_URL',
  MODELS_API: 'GENERATION_SERVICE_URL',
};

/** Every service process, distributed and in production. */
const DISTRIBUTED = [
  'NODE_ENV',
  'DATABASE_URL',
  'KAFKA_BROKERS',
  'S3_BUCKET',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  // Callers present it, and each service's /internal/v1 routes refuse every call without it.
  'INTERNAL_API_TOKEN',
];

/** Required by one service in production (NODE_ENV=production refuses to start without it). */
const PRODUCTION_ONLY: Record<string, string[]> = {
  'webhook-dispatcher': ['WEBHOOK_SECRET_KEY'],
};

/** Each service's own settings schemas, validated beside commonEnv. */
const OWN_SCHEMAS: Record<string, z.ZodObject[]> = {
  'asset-service': [downloadsEnv, uploadsEnv],
  'generation-service': [generationEnv],
  'inference-worker': [inferenceEnv],
  'job-service': [creditsEnv],
  'webhook-dispatcher': [webhookEnv],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory())
      return ['generated', 'test', 'node_modules'].includes(e.name) ? [] : sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('spec.ts') ? [path] : [];
  });
}

/** What an app needs, read from apps/<app>/src/main.ts and the service library it starts. */
function requiredVariables(app: string): string[] {
  const main = readFileSync(join(REPO_ROOT, 'apps', app, 'src/main.ts'), 'utf8');
  const library = /from '@genasset\/service-([a-z-]+)'/.exec(main)?.[1];
  if (!library) throw new Error(`apps/${app}/src/main.ts starts no @genasset/service-* library`);
  const provided = new Set(/provides:\s*\[([^\]]*)\]/.exec(main)?.[1].match(/[A-Z_]+_API/g) ?? []);
  const called = new Set<string>();
  for (const file of sourceFiles(join(REPO_ROOT, 'libs/services', library, 'src')))
    for (const m of readFileSync(file, 'utf8').matchAll(/@Inject\(([A-Z_]+_API)\)/g)) called.add(m[1]);
  const urls = [...called].filter((api) => !provided.has(api)).map((api) => API_URL_VARIABLE[api]);
  if (urls.includes(undefined as unknown as string))
    throw new Error(`${app}: an internal API without a URL variable`);
  return [
    ...DISTRIBUTED,
    ...urls,
    ...(/adminApi:\s*true/.test(main) ? ['ADMIN_TOKEN'] : []),
    ...(PRODUCTION_ONLY[app] ?? []),
  ].sort();
}

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    secretKeyRef?: { name: string; key: string };
    configMapKeyRef?: { name: string; key: string };
  };
}
interface K8sContainer {
  name: string;
  ports?: { name?: string; containerPort: number }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  env?: EnvVar[];
}

const podContainers = (o: K8sObject) =>
  (o.spec as { template: { spec: { containers: K8sContainer[] } } }).template.spec.containers;

/**
 * The environment a container gets: name → value, `undefined` for a value that comes from a Secret
 * (the example's values are placeholders). Problems: references to objects or keys that do not exist.
 */
function containerEnvironment(
  container: K8sContainer,
  objects: K8sObject[],
  secrets: K8sObject[],
): { env: Map<string, string | undefined>; problems: string[] } {
  const env = new Map<string, string | undefined>();
  const problems: string[] = [];
  const configMap = (name: string) =>
    objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === name)?.data as
      Record<string, string> | undefined;
  const secret = (name: string) =>
    secrets.find((o) => o.metadata.name === name)?.stringData as Record<string, string> | undefined;
  for (const from of container.envFrom ?? []) {
    if (from.configMapRef) {
      const data = configMap(from.configMapRef.name);
      if (!data) problems.push(`envFrom ConfigMap ${from.configMapRef.name} does not exist`);
      for (const [k, v] of Object.entries(data ?? {})) env.set(k, v);
    }
    if (from.secretRef) {
      const data = secret(from.secretRef.name);
      if (!data)
        problems.push(`envFrom Secret ${from.secretRef.name} is not in examples/secrets.example.yaml`);
      for (const k of Object.keys(data ?? {})) env.set(k, undefined);
    }
  }
  for (const e of container.env ?? []) {
    const cm = e.valueFrom?.configMapKeyRef;
    const sk = e.valueFrom?.secretKeyRef;
    if (cm) {
      const data = configMap(cm.name);
      if (data?.[cm.key] === undefined) problems.push(`${e.name}: ConfigMap ${cm.name} has no key ${cm.key}`);
      env.set(e.name, data?.[cm.key]);
    } else if (sk) {
      if (secret(sk.name)?.[sk.key] === undefined)
        problems.push(`${e.name}: Secret ${sk.name} has no key ${sk.key} in examples/secrets.example.yaml`);
      env.set(e.name, undefined);
    } else env.set(e.name, e.value ?? '');
  }
  return { env, problems };
}

/** Variables required but absent or empty (a value from a Secret counts as given). */
function missing(required: string[], env: Map<string, string | undefined>): string[] {
  return required.filter((name) => !env.has(name) || env.get(name) === '');
}

/** ENV of an app's image (the stages of its docker/Dockerfile target). */
function imageEnvironment(app: string): Map<string, string> {
  const { stages } = parseDockerfile(readFileSync(DOCKERFILE, 'utf8'));
  const env = new Map<string, string>();
  const instructions = imageStages(stages, IMAGES[app].target).flatMap((s) => s.instructions);
  for (const i of instructions.filter((x) => x.keyword === 'ENV'))
    for (const m of i.args.matchAll(/([A-Z_][A-Z0-9_]*)=(\S+)/g)) env.set(m[1], m[2]);
  return env;
}

describe('deploy/k8s gives every app the environment it needs', () => {
  const rendered = renderKustomization(join(K8S, 'overlays/production'));
  const secrets = readYamlDocuments(join(K8S, 'examples/secrets.example.yaml'));
  const deployment = (name: string) =>
    rendered.find((o) => o.kind === 'Deployment' && o.metadata.name === name)!;

  it('reads what each service needs from its code', () => {
    expect(requiredVariables('job-service')).toContain('ADMIN_TOKEN');
    expect(requiredVariables('generation-service')).toEqual(
      expect.arrayContaining(['ASSET_SERVICE_URL', 'JOB_SERVICE_URL']),
    );
    expect(requiredVariables('generation-service')).not.toContain('GENERATION_SERVICE_URL');
    expect(requiredVariables('webhook-dispatcher')).toContain('WEBHOOK_SECRET_KEY');
  });

  it.each(services)('%s: every required variable is given, every reference resolves', (app) => {
    const [container] = podContainers(deployment(app));
    const { env, problems } = containerEnvironment(container, rendered, secrets);
    expect(problems).toEqual([]);
    expect(missing(requiredVariables(app), env)).toEqual([]);
    expect(env.get('NODE_ENV')).toBe('production');
  });

  it.each(services)(
    '%s: the values spelled out parse with the schemas the app validates them with',
    (app) => {
      const [container] = podContainers(deployment(app));
      const { env } = containerEnvironment(container, rendered, secrets);
      // Secret values are placeholders: give them a valid stand-in of their format.
      const given: Record<string, string> = {};
      for (const [k, v] of env) given[k] = v ?? placeholder(k);
      expect(() => loadConfig(commonEnv, given)).not.toThrow();
      for (const own of OWN_SCHEMAS[app] ?? []) expect(() => loadConfig(own, given)).not.toThrow();
    },
  );

  it.each(services)('%s: listens on the container port its probes use', (app) => {
    const [container] = podContainers(deployment(app));
    const port = container.ports?.find((p) => p.name === 'http')?.containerPort;
    const { env } = containerEnvironment(container, rendered, secrets);
    expect(Number(env.get('PORT') ?? imageEnvironment(app).get('PORT') ?? 8080)).toBe(port);
  });

  it('the migration Jobs get DATABASE_URL of their schema, the topics Job KAFKA_BROKERS', () => {
    const jobs = rendered.filter((o) => o.kind === 'Job');
    for (const job of jobs) {
      const [container] = podContainers(job);
      const { env, problems } = containerEnvironment(container, rendered, secrets);
      expect([job.metadata.name, problems]).toEqual([job.metadata.name, []]);
      const needs = job.metadata.name === 'genasset-topics' ? ['KAFKA_BROKERS'] : ['DATABASE_URL'];
      expect([job.metadata.name, missing(needs, env)]).toEqual([job.metadata.name, []]);
    }
    expect(jobs.map((j) => j.metadata.name)).toEqual(
      expect.arrayContaining(Object.values(SERVICE_SCHEMAS).map((s) => `genasset-migrate-${s}`)),
    );
  });

  it('catches a variable taken away, and a reference to a key that does not exist', () => {
    const broken = structuredClone(rendered);
    const configMap = broken.find((o) => o.kind === 'ConfigMap')!;
    delete (configMap.data as Record<string, string>).ASSET_SERVICE_URL;
    const gen = broken.find((o) => o.kind === 'Deployment' && o.metadata.name === 'generation-service')!;
    const [container] = podContainers(gen);
    container.env!.push({ name: 'X', valueFrom: { secretKeyRef: { name: 'genasset-s3', key: 'NOPE' } } });
    const { env, problems } = containerEnvironment(container, broken, secrets);
    expect(missing(requiredVariables('generation-service'), env)).toEqual(['ASSET_SERVICE_URL']);
    expect(problems).toEqual(['X: Secret genasset-s3 has no key NOPE in examples/secrets.example.yaml']);
  });
});

function placeholder(name: string): string {
  if (name === 'DATABASE_URL') return 'postgres://u:p@postgres:5432/genasset';
  if (name === 'WEBHOOK_SECRET_KEY') return Buffer.alloc(32, 1).toString('base64');
  return 'x'.repeat(32);
}
