/**
 * Renders the kustomizations of deploy/k8s without the kustomize binary, for
 * the subset they use: `resources` (files and directories), `namespace`,
 * `labels` (metadata only), `images` and `patches` as JSON 6902 operations
 * with a kind/name target. Any other field fails the render, so a
 * kustomization can never silently mean more than this renders. When kubectl
 * is installed, k8s.spec.ts also compares the result with `kubectl kustomize`.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

export type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  [field: string]: unknown;
};

const SUPPORTED = new Set(['apiVersion', 'kind', 'resources', 'namespace', 'labels', 'images', 'patches']);
const CLUSTER_SCOPED = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'GatewayClass',
  'StorageClass',
  'PriorityClass',
]);

interface Kustomization {
  resources?: string[];
  namespace?: string;
  labels?: { pairs: Record<string, string>; includeSelectors?: boolean; includeTemplates?: boolean }[];
  images?: { name: string; newName?: string; newTag?: string; digest?: string }[];
  patches?: { target?: { kind?: string; name?: string }; patch?: string; path?: string }[];
}

export function readYamlDocuments(file: string): K8sObject[] {
  return parseAllDocuments(readFileSync(file, 'utf8'))
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0].message}`);
      return doc.toJS() as K8sObject | null;
    })
    .filter((o): o is K8sObject => o !== null);
}

export function renderKustomization(dir: string): K8sObject[] {
  const file = ['kustomization.yaml', 'kustomization.yml', 'Kustomization']
    .map((f) => join(dir, f))
    .find((f) => existsSync(f));
  if (!file) throw new Error(`no kustomization in ${dir}`);
  const k = parse(readFileSync(file, 'utf8')) as Kustomization & Record<string, unknown>;
  const unsupported = Object.keys(k).filter((key) => !SUPPORTED.has(key));
  if (unsupported.length > 0)
    throw new Error(
      `${file}: unsupported fields ${unsupported.join(', ')} (extend tools/deploy/support/kustomize.ts)`,
    );

  let objects: K8sObject[] = [];
  for (const resource of k.resources ?? []) {
    const path = join(dir, resource);
    objects.push(...(statSync(path).isDirectory() ? renderKustomization(path) : readYamlDocuments(path)));
  }
  for (const { pairs, includeSelectors, includeTemplates } of k.labels ?? []) {
    if (includeSelectors || includeTemplates)
      throw new Error(`${file}: labels with includeSelectors/includeTemplates are not supported`);
    for (const o of objects) o.metadata.labels = { ...o.metadata.labels, ...pairs };
  }
  for (const patch of k.patches ?? []) {
    if (patch.path || !patch.patch) throw new Error(`${file}: only inline JSON 6902 patches are supported`);
    const operations = parse(patch.patch) as JsonPatchOperation[];
    if (!Array.isArray(operations))
      throw new Error(`${file}: only JSON 6902 patches (a list of operations) are supported`);
    const targets = objects.filter(
      (o) =>
        (!patch.target?.kind || o.kind === patch.target.kind) &&
        (!patch.target?.name || o.metadata.name === patch.target.name),
    );
    if (targets.length === 0)
      throw new Error(`${file}: patch target ${JSON.stringify(patch.target)} matches nothing`);
    for (const target of targets) for (const op of operations) applyOperation(target, op, file);
  }
  for (const image of k.images ?? []) {
    for (const o of objects)
      for (const container of containersOf(o)) {
        const [name, tag] = splitImage(container.image);
        if (name !== image.name) continue;
        const newName = image.newName ?? name;
        container.image = image.digest
          ? `${newName}@${image.digest}`
          : `${newName}${image.newTag ? `:${image.newTag}` : tag ? `:${tag}` : ''}`;
      }
  }
  if (k.namespace) {
    for (const o of objects) if (!CLUSTER_SCOPED.has(o.kind)) o.metadata.namespace = k.namespace;
  }
  objects = objects.map((o) => JSON.parse(JSON.stringify(o)) as K8sObject);
  return objects;
}

function splitImage(image: string): [string, string | undefined] {
  const at = image.indexOf('@');
  if (at >= 0) return [image.slice(0, at), undefined];
  const colon = image.lastIndexOf(':');
  return colon > image.lastIndexOf('/')
    ? [image.slice(0, colon), image.slice(colon + 1)]
    : [image, undefined];
}

export interface Container {
  name: string;
  image: string;
  [field: string]: unknown;
}

/** Containers of a workload's pod template (Deployment, Job, …) or of a Pod. */
export function containersOf(o: K8sObject): Container[] {
  const spec = o.spec as
    | ({
        template?: { spec?: PodSpec };
        jobTemplate?: { spec?: { template?: { spec?: PodSpec } } };
      } & PodSpec)
    | undefined;
  const pod = o.kind === 'Pod' ? spec : (spec?.template?.spec ?? spec?.jobTemplate?.spec?.template?.spec);
  return [...(pod?.initContainers ?? []), ...(pod?.containers ?? [])];
}

interface PodSpec {
  containers?: Container[];
  initContainers?: Container[];
}

interface JsonPatchOperation {
  op: 'add' | 'replace' | 'remove';
  path: string;
  value?: unknown;
}

function applyOperation(target: K8sObject, op: JsonPatchOperation, file: string): void {
  const keys = op.path
    .split('/')
    .slice(1)
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
  const last = keys.pop();
  if (last === undefined) throw new Error(`${file}: empty patch path`);
  let parent: unknown = target;
  for (const key of keys) {
    parent = (parent as Record<string, unknown>)?.[key];
    if (parent === undefined)
      throw new Error(
        `${file}: patch path ${op.path} does not exist in ${target.kind}/${target.metadata.name}`,
      );
  }
  if (!['add', 'replace', 'remove'].includes(op.op))
    throw new Error(`${file}: unsupported patch operation ${op.op}`);
  if (Array.isArray(parent)) {
    const index = last === '-' ? parent.length : Number(last);
    if (op.op !== 'add' && !(index < parent.length))
      throw new Error(
        `${file}: cannot ${op.op} missing ${op.path} in ${target.kind}/${target.metadata.name}`,
      );
    if (op.op === 'add') parent.splice(index, 0, op.value);
    else if (op.op === 'replace') parent[index] = op.value;
    else parent.splice(index, 1);
    return;
  }
  const object = parent as Record<string, unknown>;
  if (op.op !== 'add' && !(last in object))
    throw new Error(`${file}: cannot ${op.op} missing ${op.path} in ${target.kind}/${target.metadata.name}`);
  if (op.op === 'remove') delete object[last];
  else object[last] = op.value;
}
