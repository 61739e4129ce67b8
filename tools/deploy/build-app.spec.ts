/**
 * The images' build step (tools/deploy/build-app.ts) on the real workspace:
 * what each app reaches, that a production install provides every package it
 * requires, that the pruned node_modules leaves dev tools out, and that the
 * compiled output runs.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  missingProductionDependencies,
  packageClosure,
  REPO_ROOT,
  traceApp,
  writeBuild,
  type AppTrace,
  type CompiledFile,
} from './build-app';
import { workspaceApps } from './images';

const cache = new Map<string, CompiledFile>();
const traces = new Map<string, AppTrace>();
function trace(app: string): AppTrace {
  let t = traces.get(app);
  if (!t) {
    t = traceApp(app, { cache, allowMissingGenerated: true });
    traces.set(app, t);
  }
  return t;
}

const apps = workspaceApps();
const services = apps.filter((a) => a !== 'platform' && a !== 'cli');
const generated = existsSync(join(REPO_ROOT, 'libs/services/job/src/generated/prisma/client.ts'));

describe('build-app', () => {
  it.each(apps)('%s requires only production dependencies (the image installs nothing else)', (app) => {
    // A devDependency required at run time is missing from the image: move it to "dependencies".
    expect(missingProductionDependencies(trace(app))).toEqual([]);
  });

  it.each(services)('%s reaches its own service library and no other service', (app) => {
    const libraries = [...trace(app).projects].filter((p) => p.startsWith('libs/services/'));
    expect(libraries).toHaveLength(1);
    expect(trace(app).files.has(`apps/${app}/src/main.ts`)).toBe(true);
    // Tests and test support never reach an image.
    expect(
      [...trace(app).files.keys()].filter((f) => /\.(int-|e2e-)?spec\.ts$|\/test\/|libs\/testing\//.test(f)),
    ).toEqual([]);
  });

  it('rewrites @genasset/* aliases into relative requires', () => {
    const main = trace('job-service').files.get('apps/job-service/src/main.ts')!;
    expect(main.code).not.toMatch(/require\("@genasset\//);
    expect(main.code).toContain('require("../../../libs/runtime/src/index")');
  });

  it('reports a dev-only package an app requires', () => {
    const fake: AppTrace = {
      ...trace('job-service'),
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

  (generated ? it : it.skip)('the compiled cli runs (aliases, decorators, assets)', () => {
    const out = mkdtempSync(join(tmpdir(), 'genasset-build-'));
    try {
      const cli = traceApp('cli', { cache });
      expect(cli.missingGenerated).toEqual([]);
      writeBuild(cli, out);
      symlinkSync(join(REPO_ROOT, 'node_modules'), join(out, 'node_modules'));
      const run = spawnSync(
        process.execPath,
        // `node .` as the image runs it: package.json's main is the app's entry point.
        ['.', 'topics', 'list', '--json'],
        {
          cwd: out,
          encoding: 'utf8',
          env: { PATH: process.env.PATH, NODE_ENV: 'production' },
          timeout: 60_000,
        },
      );
      expect(run.stderr).toBe('');
      expect(JSON.parse(run.stdout)).toContain('job.lifecycle.v1.dlt');
      // Every schema's migrations travel with the code that reads them through __dirname.
      expect(readdirSync(join(out, 'dist/libs/services/webhook/prisma/migrations')).length).toBeGreaterThan(
        0,
      );
      expect(readdirSync(join(out, 'dist/libs/messaging/sql')).length).toBeGreaterThan(0);
      expect(JSON.parse(readFileSync(join(out, 'dist/build-info.json'), 'utf8')).main).toBe(
        'dist/apps/cli/src/main.js',
      );
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
