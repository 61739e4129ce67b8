/**
 * The images of docker/Dockerfile: one per app under apps/, built with `--build-arg APP=<app>` and
 * the target of its kind (docker/docker-bake.hcl names both for every app).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(__dirname, '../..');
export const DOCKERFILE = join(REPO_ROOT, 'docker', 'Dockerfile');

/** The Dockerfile's final stages: `service` (one service), `platform` (all in one, /data), `cli` (jobs). */
export type ImageTarget = 'service' | 'platform' | 'cli';

export interface ImageSpec {
  target: ImageTarget;
  /** Serves the web console at /console: build-app.ts adds its Vite build to the image. */
  console?: boolean;
}

/** One entry per app under apps/ (docker.spec.ts checks both lists agree). */
export const IMAGES: Record<string, ImageSpec> = {
  // The gateway routes /console here (deploy/compose/nginx.conf, deploy/k8s/base/gateway.yaml).
  'asset-service': { target: 'service', console: true },
  'collection-service': { target: 'service' },
  'generation-service': { target: 'service' },
  'inference-worker': { target: 'service' },
  'job-service': { target: 'service' },
  'webhook-dispatcher': { target: 'service' },
  platform: { target: 'platform', console: true },
  cli: { target: 'cli' },
};

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
