/**
 * deploy/k8s, offline: the production overlay rendered by `kubectl kustomize`
 * (tools/deploy/support/kustomize.ts finds or fetches a kubectl), every
 * object validated against the Kubernetes, KEDA and Gateway API schemas with
 * unknown fields refused, and the platform's own rules: probes, resources,
 * security, disruption budgets, autoscaling, jobs, secrets and public routes.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { workspaceApps } from './images';
import {
  containersOf,
  readYamlDocuments,
  renderKustomization,
  type Container,
  type K8sObject,
} from './support/kustomize';
import { CALLBACK_SERVICES, HTTP_SERVICES, routeProblems, type HttpRouteSpec } from './support/routes';
import { knownEnvironmentVariables, REPO_ROOT, schemaNames, SERVICE_SCHEMAS } from './support/workspace';

const K8S = join(REPO_ROOT, 'deploy/k8s');
const OVERLAY = join(K8S, 'overlays/production');
const rendered = renderKustomization(OVERLAY);
const exampleSecrets = readYamlDocuments(join(K8S, 'examples/secrets.example.yaml'));
const services = workspaceApps().filter((a) => a !== 'platform' && a !== 'cli');
const consumers = ['inference-worker', 'webhook-dispatcher'];

const byKind = (kind: string, objects = rendered) => objects.filter((o) => o.kind === kind);
const named = (kind: string, name: string) =>
  rendered.find((o) => o.kind === kind && o.metadata.name === name);
const spec = <T>(o: K8sObject | undefined) => o?.spec as T;

/** Schema validation in a child process (the model packages are ESM-only): errors per object. */
function schemaErrors(objects: unknown[]): { ref: string; errors: string[] }[] {
  const run = spawnSync(process.execPath, [join(__dirname, 'support/k8s-schema-check.mjs')], {
    input: JSON.stringify(objects),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 120_000,
  });
  if (run.status !== 0) throw new Error(`schema check failed: ${run.stderr || run.error}`);
  return (JSON.parse(run.stdout) as { results: { ref: string; errors: string[] }[] }).results;
}

interface PodTemplate {
  metadata: { labels: Record<string, string> };
  spec: {
    terminationGracePeriodSeconds?: number;
    automountServiceAccountToken?: boolean;
    topologySpreadConstraints?: { topologyKey: string; matchLabelKeys?: string[] }[];
    securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; seccompProfile?: { type: string } };
    containers: (Container & {
      envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
      env?: {
        name: string;
        value?: string;
        valueFrom?: {
          secretKeyRef?: { name: string; key: string };
          configMapKeyRef?: { name: string; key: string };
        };
      }[];
      resources?: { requests?: { cpu?: string; memory?: string }; limits?: { memory?: string } };
      startupProbe?: { httpGet?: { path: string } };
      livenessProbe?: { httpGet?: { path: string } };
      readinessProbe?: { httpGet?: { path: string } };
      lifecycle?: { preStop?: { exec?: { command: string[] } } };
      securityContext?: {
        allowPrivilegeEscalation?: boolean;
        readOnlyRootFilesystem?: boolean;
        capabilities?: { drop?: string[] };
      };
      args?: string[];
    })[];
  };
}
const podOf = (o: K8sObject | undefined) => (o?.spec as { template: PodTemplate }).template;
const seconds = (duration: string) => Number(/^(\d+)s$/.exec(duration)?.[1]);

describe('kubernetes manifests', () => {
  it('renders the production overlay: the Jobs, the six services and their routes', () => {
    expect(rendered.length).toBeGreaterThan(30);
    expect(
      byKind('Deployment')
        .map((d) => d.metadata.name)
        .sort(),
    ).toEqual(services);
  });

  it("no manifest in base sets a field one of its components sets (the component's `add` would silently replace it)", () => {
    const base = join(K8S, 'base');
    const kustomization = parse(readFileSync(join(base, 'kustomization.yaml'), 'utf8')) as {
      resources: string[];
      components: string[];
    };
    const objects = kustomization.resources.flatMap((file) => readYamlDocuments(join(base, file)));
    const pointer = (o: unknown, path: string) =>
      path
        .split('/')
        .slice(1)
        .reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], o);
    const overlaps: string[] = [];
    let checked = 0;
    for (const component of kustomization.components) {
      const dir = join(base, component);
      const { patches } = parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as {
        patches: { path: string; target: { kind: string } }[];
      };
      for (const patch of patches) {
        const operations = parse(readFileSync(join(dir, patch.path), 'utf8')) as { path: string }[];
        for (const o of objects.filter((x) => x.kind === patch.target.kind)) {
          checked++;
          // An index (or `-`) at the end inserts into a list; anything else replaces what is there.
          for (const { path } of operations.filter((op) => !/\/(\d+|-)$/.test(op.path)))
            if (pointer(o, path) !== undefined) overlaps.push(`${o.kind}/${o.metadata.name} ${path}`);
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(services.length * 4 + 8);
    expect(overlaps).toEqual([]);
  });

  it.each(services)('%s: spread over nodes and zones among its own pods', (name) => {
    const pod = podOf(named('Deployment', name));
    const spread = pod.spec.topologySpreadConstraints ?? [];
    expect(spread.map((c) => c.topologyKey)).toEqual([
      'kubernetes.io/hostname',
      'topology.kubernetes.io/zone',
    ]);
    // matchLabelKeys narrows each constraint to pods with this pod's own app.kubernetes.io/name.
    for (const c of spread) expect(c.matchLabelKeys).toEqual(['app.kubernetes.io/name']);
    expect(pod.metadata.labels['app.kubernetes.io/name']).toBe(name);
  });

  it('every object, the example Secrets included, is valid against the Kubernetes, KEDA and Gateway API schemas', () => {
    expect(schemaErrors([...rendered, ...exampleSecrets]).filter((r) => r.errors.length > 0)).toEqual([]);
  });

  it('the schema check rejects invalid objects: wrong types, unknown fields, bad enums, unknown kinds', () => {
    const deployment = structuredClone(named('Deployment', 'job-service')!);
    podOf(deployment).spec.containers[0].ports = [{ containerPort: 'http' }] as never;
    const typo = structuredClone(named('Deployment', 'asset-service')!);
    (podOf(typo).spec.containers[0] as Record<string, unknown>).livenesProbe = {
      httpGet: { path: '/healthz', port: 'http' },
    };
    const scaled = structuredClone(named('ScaledObject', 'inference-worker')!);
    (scaled.spec as Record<string, unknown>).minReplicas = 1;
    const route = structuredClone(named('HTTPRoute', 'job-service')!);
    spec<HttpRouteSpec>(route).rules[0].matches[0].path.type = 'Regex';
    const job = structuredClone(byKind('Job')[0]);
    delete (job.spec as { template?: unknown }).template;
    const unknown = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } };
    const results = schemaErrors([
      deployment,
      typo,
      scaled,
      route,
      job,
      unknown,
      named('Service', 'job-service'),
    ]);
    expect(results.map((r) => [r.ref, r.errors.length > 0])).toEqual([
      ['Deployment/job-service', true],
      ['Deployment/asset-service', true],
      ['ScaledObject/inference-worker', true],
      ['HTTPRoute/job-service', true],
      [`Job/${job.metadata.name}`, true],
      ['Widget/w', true],
      ['Service/job-service', false],
    ]);
    expect(results[1].errors.join()).toContain('livenesProbe');
    expect(results[2].errors.join()).toContain('minReplicas');
  });

  it('puts everything in one namespace and pins every image', () => {
    for (const o of rendered.filter((o) => o.kind !== 'Namespace'))
      expect([o.kind, o.metadata.name, o.metadata.namespace]).toEqual([o.kind, o.metadata.name, 'genasset']);
    for (const c of rendered.flatMap(containersOf))
      expect(c.image).toMatch(/^[\w.-]+(\/[\w.-]+)+(:[\w.-]+|@sha256:[a-f0-9]{64})$/);
    for (const c of rendered.flatMap(containersOf)) expect(c.image).not.toMatch(/:latest$|^genasset\//);
  });

  it.each(services)('%s: Deployment, Service and PodDisruptionBudget with matching selectors', (name) => {
    const deployment = named('Deployment', name)!;
    const labels = podOf(deployment).metadata.labels;
    const selects = (selector: Record<string, string>) =>
      Object.entries(selector).every(([k, v]) => labels[k] === v);
    expect(
      selects(spec<{ selector: { matchLabels: Record<string, string> } }>(deployment).selector.matchLabels),
    ).toBe(true);
    expect(selects(spec<{ selector: Record<string, string> }>(named('Service', name)).selector)).toBe(true);
    expect(spec<{ ports: { port: number; targetPort: string }[] }>(named('Service', name)).ports).toEqual([
      expect.objectContaining({ port: 8080, targetPort: 'http' }),
    ]);
    const pdb = spec<{ selector: { matchLabels: Record<string, string> }; maxUnavailable?: number }>(
      named('PodDisruptionBudget', name),
    );
    expect(selects(pdb.selector.matchLabels)).toBe(true);
    expect(pdb.maxUnavailable).toBe(1);
    // The autoscaler owns the replica count; a replicas field would fight it on every apply.
    expect(spec<{ replicas?: number }>(deployment).replicas).toBeUndefined();
  });

  it.each(services)('%s: probes, resources, graceful shutdown and a restricted security context', (name) => {
    const pod = podOf(named('Deployment', name)).spec;
    const [container] = pod.containers;
    expect(pod.containers).toHaveLength(1);
    expect(container.startupProbe?.httpGet?.path).toBe('/healthz');
    expect(container.livenessProbe?.httpGet?.path).toBe('/healthz');
    expect(container.readinessProbe?.httpGet?.path).toBe('/readyz');
    expect(container.resources?.requests?.cpu).toBeDefined();
    expect(container.resources?.requests?.memory).toBeDefined();
    expect(container.resources?.limits?.memory).toBeDefined();
    const config = named('ConfigMap', 'genasset-config')!.data as Record<string, string>;
    const preStop = Number(container.lifecycle?.preStop?.exec?.command[1] ?? 0);
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(
      preStop + seconds(config.SHUTDOWN_GRACE) + 5,
    );
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(pod.securityContext).toMatchObject({
      runAsNonRoot: true,
      runAsUser: 1000,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(container.securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
  });

  it.each(services)("%s: its schema's DATABASE_URL, shared config and only its own secrets", (name) => {
    const [container] = podOf(named('Deployment', name)).spec.containers;
    const env = Object.fromEntries((container.env ?? []).map((e) => [e.name, e]));
    expect(env.DATABASE_URL?.valueFrom?.secretKeyRef).toEqual({
      name: 'genasset-database',
      key: SERVICE_SCHEMAS[name],
    });
    expect(container.envFrom).toEqual([
      { configMapRef: { name: 'genasset-config' } },
      { secretRef: { name: 'genasset-internal' } },
      { secretRef: { name: 'genasset-s3' } },
    ]);
    expect('ADMIN_TOKEN' in env).toBe(name === 'job-service');
    expect('WEBHOOK_SECRET_KEY' in env).toBe(name === 'webhook-dispatcher');
    if (name === 'webhook-dispatcher') {
      expect(env.WEBHOOK_ALLOW_HTTP?.value).toBe('false');
      expect(env.WEBHOOK_ALLOW_PRIVATE_TARGETS?.value).toBe('false');
    }
    const known = knownEnvironmentVariables();
    expect(Object.keys(env).filter((n) => !known.has(n))).toEqual([]);
  });

  it('the ConfigMap sets only variables the code reads, and no secret', () => {
    const data = named('ConfigMap', 'genasset-config')!.data as Record<string, string>;
    const known = knownEnvironmentVariables();
    expect(Object.keys(data).filter((n) => !known.has(n))).toEqual([]);
    expect(Object.keys(data).filter((n) => /TOKEN|SECRET|PASSWORD|DATABASE_URL/.test(n))).toEqual([]);
    expect(data.NODE_ENV).toBe('production');
  });

  it('every Secret and key a workload references is in examples/secrets.example.yaml', () => {
    const keys = new Map(
      exampleSecrets.map((s) => [
        s.metadata.name,
        Object.keys((s as unknown as { stringData: Record<string, string> }).stringData),
      ]),
    );
    for (const c of rendered.flatMap(containersOf) as PodTemplate['spec']['containers']) {
      for (const from of c.envFrom ?? [])
        if (from.secretRef) expect([c.name, keys.has(from.secretRef.name)]).toEqual([c.name, true]);
      for (const e of c.env ?? []) {
        const ref = e.valueFrom?.secretKeyRef;
        if (ref)
          expect([c.name, ref.name, ref.key, keys.get(ref.name)?.includes(ref.key)]).toEqual([
            c.name,
            ref.name,
            ref.key,
            true,
          ]);
      }
    }
    expect(keys.get('genasset-database')?.sort()).toEqual(schemaNames());
    expect(byKind('Secret')).toEqual([]);
  });

  it('HTTP services scale on CPU with an HPA; the consumers on lag with KEDA', () => {
    const hpas = byKind('HorizontalPodAutoscaler');
    const scaled = byKind('ScaledObject');
    expect(hpas.map((h) => h.metadata.name).sort()).toEqual(services.filter((s) => !consumers.includes(s)));
    expect(scaled.map((s) => s.metadata.name).sort()).toEqual(consumers);
    for (const hpa of hpas) {
      const s = spec<{
        scaleTargetRef: { kind: string; name: string };
        minReplicas: number;
        maxReplicas: number;
        metrics: { resource: { name: string } }[];
      }>(hpa);
      expect(s.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: hpa.metadata.name });
      expect(s.minReplicas).toBeGreaterThanOrEqual(2);
      expect(s.maxReplicas).toBeGreaterThan(s.minReplicas);
      expect(s.metrics.map((m) => m.resource.name)).toEqual(['cpu']);
    }
    const expectedTopics: Record<string, string[]> = {
      'inference-worker': ['job.work.v1'],
      'webhook-dispatcher': ['job.lifecycle.v1', 'team.alerts.v1'],
    };
    for (const so of scaled) {
      const s = spec<{
        scaleTargetRef: { name: string };
        maxReplicaCount: number;
        triggers: { type: string; metadata: Record<string, string> }[];
      }>(so);
      expect(s.scaleTargetRef.name).toBe(so.metadata.name);
      const kafka = s.triggers.filter((t) => t.type === 'kafka');
      expect(kafka.map((t) => t.metadata.topic).sort()).toEqual(expectedTopics[so.metadata.name]);
      for (const t of kafka) {
        expect(t.metadata.consumerGroup).toBe(so.metadata.name);
        expect(t.metadata.bootstrapServersFromEnv).toBe('KAFKA_BROKERS');
        expect(Number(t.metadata.lagThreshold)).toBeGreaterThan(0);
      }
    }
    // The worker's real backlog is rows, not lag (its intake empties the topic at once).
    const worker = spec<{ triggers: { type: string; metadata: Record<string, string> }[] }>(
      named('ScaledObject', 'inference-worker'),
    );
    const rows = worker.triggers.find((t) => t.type === 'postgresql');
    expect(rows?.metadata).toMatchObject({
      connectionFromEnv: 'DATABASE_URL',
      query: expect.stringMatching(
        /FROM inference\.work_items WHERE \(status = 'queued' AND available_at <= now\(\)\)/,
      ),
    });
    expect(Number(rows?.metadata.targetQueryValue)).toBeGreaterThan(0);
    const [container] = podOf(named('Deployment', 'inference-worker')).spec.containers;
    expect(container.env?.some((e) => e.name === 'DATABASE_URL')).toBe(true);
  });

  it('has the topics Job and one migration Job per schema, each on the cli image', () => {
    const jobs = byKind('Job');
    expect(jobs.map((j) => j.metadata.name).sort()).toEqual(
      ['genasset-topics', ...schemaNames().map((s) => `genasset-migrate-${s}`)].sort(),
    );
    for (const schema of schemaNames()) {
      const [container] = podOf(named('Job', `genasset-migrate-${schema}`)).spec.containers;
      expect(container.args).toEqual(['migrate', '--only', schema]);
      expect(container.env?.find((e) => e.name === 'DATABASE_URL')?.valueFrom?.secretKeyRef).toEqual({
        name: 'genasset-database',
        key: schema,
      });
    }
    const [topics] = podOf(named('Job', 'genasset-topics')).spec.containers;
    expect(topics.args?.slice(0, 2)).toEqual(['topics', 'create']);
    for (const job of jobs) {
      expect(containersOf(job)[0].image).toMatch(/\/cli:/);
      expect(job.metadata.labels?.['app.kubernetes.io/component']).toMatch(/^(topics|migration)$/);
    }
    // deploy/k8s/apply.sh applies these first, selected by label.
    for (const o of byKind('ConfigMap').concat(byKind('Namespace')))
      expect(o.metadata.labels?.['app.kubernetes.io/component']).toBe('config');
  });

  it('routes each public path to its owner, docs per service, and nothing private', () => {
    const routes = byKind('HTTPRoute');
    expect(routes.map((r) => r.metadata.name).sort()).toEqual(
      [...HTTP_SERVICES, ...CALLBACK_SERVICES].sort(),
    );
    for (const r of routes) expect(spec<HttpRouteSpec>(r).parentRefs).toEqual([{ name: 'genasset' }]);
    expect(byKind('Gateway').map((g) => g.metadata.name)).toEqual(['genasset']);
    expect(routeProblems(routes)).toEqual([]);
  });

  it('the route check catches a route that leaks private paths or overlaps another', () => {
    const leaking = structuredClone(byKind('HTTPRoute'));
    spec<HttpRouteSpec>(leaking.find((r) => r.metadata.name === 'job-service')).rules[0].matches.push({
      path: { type: 'PathPrefix', value: '/admin' },
    });
    expect(routeProblems(leaking)).toEqual(
      expect.arrayContaining([expect.stringContaining('/admin/v1/teams must not be public')]),
    );
    const overlapping = structuredClone(byKind('HTTPRoute'));
    spec<HttpRouteSpec>(overlapping.find((r) => r.metadata.name === 'job-service')).rules[0].matches.push({
      path: { type: 'PathPrefix', value: '/v1/teams' },
    });
    expect(routeProblems(overlapping)).toEqual(
      expect.arrayContaining([expect.stringContaining('/v1/teams/team_01J/webhook-endpoints')]),
    );
  });
});
