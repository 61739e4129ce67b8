/** Facts about the workspace the deployment files must agree with, read from the sources. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const REPO_ROOT = join(__dirname, '../../..');

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!['node_modules', 'generated', 'test', 'dist'].includes(entry.name))
        files.push(...sourceFiles(path));
    } else if (entry.name.endsWith('.ts') && !/\.(int-|e2e-)?spec\.ts$/.test(entry.name)) files.push(path);
  }
  return files;
}

/** Environment variables some process reads: keys of the zod schemas in libs (`NAME: z…` / `NAME: vars…`). */
export function knownEnvironmentVariables(): Set<string> {
  const names = new Set<string>();
  for (const file of sourceFiles(join(REPO_ROOT, 'libs'))) {
    if (relative(REPO_ROOT, file).startsWith('libs/testing')) continue;
    for (const match of readFileSync(file, 'utf8').matchAll(
      /^\s*([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\s*:\s*(?:z\b|vars\.)/gm,
    ))
      names.add(match[1]);
  }
  return names;
}

/** PostgreSQL schemas with migrations (`schema: '<name>'` in libs/**\/*.schema.ts). */
export function schemaNames(): string[] {
  const names = new Set<string>();
  for (const file of sourceFiles(join(REPO_ROOT, 'libs')).filter((f) => f.endsWith('.schema.ts'))) {
    for (const match of readFileSync(file, 'utf8').matchAll(/^\s*schema:\s*'([a-z_]+)'/gm))
      names.add(match[1]);
  }
  return [...names].sort();
}

/** app → the schema its service owns (from `schema: X_SCHEMA` in apps/<app>/src/main.ts and the constant's file). */
export const SERVICE_SCHEMAS: Record<string, string> = {
  'asset-service': 'assets',
  'collection-service': 'collections',
  'generation-service': 'generation',
  'inference-worker': 'inference',
  'job-service': 'jobs',
  'webhook-dispatcher': 'webhooks',
};
