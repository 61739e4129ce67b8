/**
 * Every app's Dockerfile is rendered from one pattern, `docker/Dockerfile.template`:
 *
 *   node -r @swc-node/register tools/deploy/dockerfiles.ts          # rewrite docker/<app>.Dockerfile
 *   node -r @swc-node/register tools/deploy/dockerfiles.ts --check  # exit 1 when one is stale
 *
 * `tools/deploy/docker.spec.ts` fails when a committed Dockerfile differs from
 * its rendering, so a fix to the pattern reaches every image.
 */
import { readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(__dirname, '../..');

export type ImageKind = 'service' | 'platform' | 'cli';

export interface ImageSpec {
  kind: ImageKind;
  description: string;
  /** Serves the web console at /console: its Vite build goes into the image beside the app. */
  console?: boolean;
}

/** One entry per app under apps/ (the spec checks both lists agree). */
export const IMAGES: Record<string, ImageSpec> = {
  'asset-service': {
    kind: 'service',
    description: 'Assets: upload, list, canvases, tags, downloads and archive exports',
    // The gateway routes /console here (deploy/compose/nginx.conf, deploy/k8s/base/gateway.yaml).
    console: true,
  },
  'collection-service': { kind: 'service', description: 'Collections of assets and models' },
  'generation-service': {
    kind: 'service',
    description: 'Generation requests (validation, cost, dry runs) and models',
  },
  'inference-worker': {
    kind: 'service',
    description: 'Runs generation, training and export engines (sharp image engine built in)',
  },
  'job-service': {
    kind: 'service',
    description: 'Jobs, creative-unit ledger, credit alerts and the operator admin API',
  },
  'webhook-dispatcher': { kind: 'service', description: 'Webhook endpoints and signed, retried deliveries' },
  platform: {
    kind: 'platform',
    description:
      'Every service in one process (embedded mode unless DATABASE_URL, KAFKA_BROKERS and S3_* are set)',
    console: true,
  },
  cli: { kind: 'cli', description: 'Operator commands: migrate, topics, admin, webhook receiver tools' },
};

/** The container's liveness check: node's fetch against /healthz (no curl in node:24-slim). */
export const HEALTHCHECK_COMMAND =
  "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))";

const HEALTHCHECK = [
  'HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \\',
  `  CMD ["node", "-e", ${JSON.stringify(HEALTHCHECK_COMMAND)}]`,
];

function runtimeTail(app: string, kind: ImageKind): string {
  const lines: string[] = [];
  if (kind === 'platform') {
    lines.push(
      '# Embedded mode keeps its database, objects and bootstrap.json here.',
      'ENV DATA_DIR=/data',
      'RUN mkdir -p /data && chown 1000:1000 /data',
      'VOLUME ["/data"]',
    );
  }
  lines.push('USER 1000:1000');
  if (kind === 'cli') {
    lines.push(
      '# A command runner (migration and topic jobs, admin commands): no server, no health check.',
      'HEALTHCHECK NONE',
      `ENTRYPOINT ["node", "dist/apps/${app}/src/main.js"]`,
      'CMD ["--help"]',
    );
  } else {
    lines.push(
      'EXPOSE 8080',
      '# The app handles SIGTERM itself: readiness goes red, in-flight work finishes, offsets commit (SHUTDOWN_GRACE).',
      'STOPSIGNAL SIGTERM',
      ...HEALTHCHECK,
      `CMD ["node", "dist/apps/${app}/src/main.js"]`,
    );
  }
  return lines.join('\n');
}

export function dockerfilePath(app: string, root = REPO_ROOT): string {
  return join(root, 'docker', `${app}.Dockerfile`);
}

export function renderDockerfile(app: string, root = REPO_ROOT): string {
  const spec = IMAGES[app];
  if (!spec)
    throw new Error(`no image spec for app "${app}": add it to IMAGES in tools/deploy/dockerfiles.ts`);
  const template = readFileSync(join(root, 'docker', 'Dockerfile.template'), 'utf8');
  const values: Record<string, string> = {
    NOTICE:
      'GENERATED from docker/Dockerfile.template by tools/deploy/dockerfiles.ts: edit the template, then regenerate.',
    APP: app,
    DESCRIPTION: spec.description,
    RUNTIME: runtimeTail(app, spec.kind),
    // main.js finds the console at ../../console/dist from dist/apps/<app>/src (apps/<app>/src/main.ts).
    CONSOLE_BUILD: spec.console
      ? ' \\\n && node_modules/.bin/vite build apps/console --outDir /out/dist/apps/console/dist --emptyOutDir --logLevel warn'
      : '',
  };
  return template.replace(/\{\{(\w+)\}\}/g, (_, key: string) => {
    if (!(key in values)) throw new Error(`docker/Dockerfile.template: unknown placeholder {{${key}}}`);
    return values[key];
  });
}

/**
 * Apps of the workspace that run as a process: directories under apps/ with a project.json and a
 * src/main.ts. The web console (apps/console) is static files that platform and asset-service serve.
 */
export function workspaceApps(root = REPO_ROOT): string[] {
  return readdirSync(join(root, 'apps'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(root, 'apps', d.name, 'project.json')))
    .filter((d) => existsSync(join(root, 'apps', d.name, 'src', 'main.ts')))
    .map((d) => d.name)
    .sort();
}

function main(argv: string[]): void {
  const check = argv.includes('--check');
  const stale: string[] = [];
  for (const app of workspaceApps()) {
    const path = dockerfilePath(app);
    const rendered = renderDockerfile(app);
    const current = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
    if (current === rendered) continue;
    if (check) stale.push(path);
    else {
      writeFileSync(path, rendered);
      console.log(`wrote ${path}`);
    }
  }
  if (stale.length > 0) {
    console.error(
      `stale Dockerfiles (run node -r @swc-node/register tools/deploy/dockerfiles.ts):\n  ${stale.join('\n  ')}`,
    );
    process.exit(1);
  }
}

if (require.main === module) main(process.argv.slice(2));
