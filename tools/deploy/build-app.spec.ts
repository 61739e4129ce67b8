/**
 * The images' build step (tools/deploy/build-app.ts) on the real workspace: every app bundled by
 * esbuild in one run, what each bundle reaches, that a production install provides every package
 * it requires, that the pruned node_modules leaves dev tools out, and that a built app runs as the
 * image runs it (`node .`).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  bundleApps,
  missingProductionDependencies,
  REPO_ROOT,
  writeAppFiles,
  type AppBundle,
} from './build-app';
import { workspaceApps } from './images';
import { packageClosure } from './node-modules';

const apps = workspaceApps();
const services = apps.filter((a) => a !== 'platform' && a !== 'cli');
const out = mkdtempSync(join(tmpdir(), 'genasset-build-'));
let bundles: Map<string, AppBundle>;

beforeAll(async () => {
  bundles = new Map((await bundleApps(apps, out)).map((b) => [b.app, b]));
}, 120_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('build-app', () => {
  it.each(apps)('%s requires only production dependencies (the image installs nothing else)', (app) => {
    // A devDependency required at run time is missing from the image: move it to "dependencies".
    expect(missingProductionDependencies(bundles.get(app)!)).toEqual([]);
  });

  it.each(services)('%s reaches its own service library and no other service', (app) => {
    const bundle = bundles.get(app)!;
    const libraries = [...bundle.projects].filter((p) => p.startsWith('libs/services/'));
    expect(libraries).toHaveLength(1);
    expect(bundle.inputs).toContain(`apps/${app}/src/main.ts`);
    // Tests and test support never reach an image.
    expect(bundle.inputs.filter((f) => /\.(int-|e2e-)?spec\.ts$|\/test\/|libs\/testing\//.test(f))).toEqual(
      [],
    );
  });

  it('keeps npm packages out of the bundle and NestJS decorator metadata in it', () => {
    const bundle = bundles.get('job-service')!;
    expect(bundle.inputs.filter((f) => f.includes('node_modules'))).toEqual([]);
    expect(bundle.packages.has('@nestjs/core')).toBe(true);
    const code = readFileSync(join(out, 'job-service/dist/main.js'), 'utf8');
    expect(code).toContain('"design:paramtypes"');
  });

  it('reports a dev-only package an app requires', () => {
    const fake: AppBundle = {
      ...bundles.get('job-service')!,
      packages: new Map([
        ['jest', new Set(['libs/x/src/y.ts'])],
        ['left-pad', new Set(['libs/x/src/z.ts'])],
      ]),
    };
    expect(missingProductionDependencies(fake)).toEqual([
      expect.stringMatching(
        /^jest is a devDependency but job-service requires it at run time \(libs\/x\/src\/y\.ts\)/,
      ),
      expect.stringMatching(/^left-pad is required by job-service .* but is not a dependency/),
    ]);
  });

  it('prunes node_modules to the production closure: required peers in, dev tools out', () => {
    const closure = [...packageClosure(['@prisma/client', 'nestjs-pino', '@nestjs/swagger'])].map((dir) =>
      dir.slice(dir.lastIndexOf('/node_modules/') + 14),
    );
    expect(closure).toEqual(
      expect.arrayContaining([
        '@prisma/client',
        'nestjs-pino',
        'pino-http',
        '@nestjs/swagger',
        '@fastify/static',
      ]),
    );
    // @prisma/client peers with the Prisma CLI and TypeScript (optional, dev-only here).
    for (const dev of ['prisma', 'typescript', '@prisma/studio-core', 'jest'])
      expect(closure).not.toContain(dev);
  });

  it('the built cli runs as `node .` (decorators, __dirname of each source, assets)', () => {
    const dir = join(out, 'cli');
    writeAppFiles(bundles.get('cli')!, dir);
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'));
    const run = spawnSync(process.execPath, ['.', 'topics', 'list', '--json'], {
      cwd: dir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, NODE_ENV: 'production' },
      timeout: 60_000,
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toContain('job.lifecycle.v1.dlt');
    // Every schema's migrations travel to where the bundled code looks for them (its source's __dirname).
    expect(readdirSync(join(dir, 'dist/libs/services/webhook/prisma/migrations')).length).toBeGreaterThan(0);
    expect(readdirSync(join(dir, 'dist/libs/messaging/sql')).length).toBeGreaterThan(0);
    expect(readFileSync(join(dir, 'dist/main.js'), 'utf8')).toContain(
      'require("node:path").join(__dirname, "libs/services/webhook/src")',
    );
    expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).main).toBe('dist/main.js');
  });
});
