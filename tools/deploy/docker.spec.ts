/**
 * Static checks of the images (no Docker engine here, and hadolint is not
 * packaged for Debian 12): one docker/Dockerfile for every app (ARG APP, a
 * final stage per kind), multi-stage on node:24-slim, frozen installs, a
 * non-root numeric user, a health check, exec-form commands, every app built
 * by docker-bake.hcl with its APP and target, and a .dockerignore that keeps
 * local state out without hiding anything the build copies.
 */
import ignore from '@balena/dockerignore';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DOCKERFILE, IMAGES, REPO_ROOT, workspaceApps, type ImageTarget } from './images';
import { copySources, imageStages, parseDockerfile, type Instruction } from './support/dockerfile';

const apps = workspaceApps();
const dockerfile = readFileSync(DOCKERFILE, 'utf8');
const dockerignore = ignore().add(readFileSync(join(REPO_ROOT, '.dockerignore'), 'utf8'));
const targets = [...new Set(Object.values(IMAGES).map((i) => i.target))].sort();

/** Problems of the image `text` builds with `--target <target>`; an empty list means it passes. */
function lintDockerfile(target: ImageTarget, text: string): string[] {
  const problems: string[] = [];
  const { globalArgs, stages } = parseDockerfile(text);
  if (!text.startsWith('# syntax=docker/dockerfile:1'))
    problems.push('first line must pin the Dockerfile syntax (# syntax=docker/dockerfile:1.x)');

  const nodeImage = globalArgs.find((a) => a.args.startsWith('NODE_IMAGE='))?.args.split('=')[1];
  if (nodeImage !== 'node:24-slim')
    problems.push(`ARG NODE_IMAGE must default to node:24-slim, got ${nodeImage}`);
  const names = new Set<string>();
  for (const stage of stages) {
    const base = stage.from === '${NODE_IMAGE}' ? nodeImage : stage.from;
    if (!names.has(stage.from) && base !== 'node:24-slim')
      problems.push(
        `stage ${stage.name ?? '?'} must build FROM node:24-slim or an earlier stage, not ${stage.from}`,
      );
    if (!stage.name) problems.push(`every stage needs a name (FROM ${stage.from})`);
    else names.add(stage.name);
  }
  if (stages.length < 3) problems.push('expected a multi-stage build (deps, build, runtime)');
  let image: ReturnType<typeof imageStages> = [];
  try {
    image = imageStages(stages, target);
  } catch {
    problems.push(`no stage named ${target}`);
  }
  if (image[0] && image[0].from !== '${NODE_IMAGE}')
    problems.push(`the ${target} image must start from node:24-slim itself, not from a build stage`);

  const all = stages.flatMap((s) => s.instructions.map((i) => ({ stage: s.name, ...i })));
  for (const i of all) {
    if (i.keyword === 'ADD') problems.push(`line ${i.line}: use COPY, not ADD`);
    if (i.keyword === 'RUN' && /\bpnpm install\b/.test(i.args) && !i.args.includes('--frozen-lockfile')) {
      problems.push(`line ${i.line}: pnpm install without --frozen-lockfile`);
    }
    if (i.keyword === 'RUN' && /\bcurl\b.*\|\s*(ba)?sh/.test(i.args))
      problems.push(`line ${i.line}: no curl | sh`);
    if (/:latest\b/.test(i.args)) problems.push(`line ${i.line}: no :latest`);
  }
  const build = all.find((i) => i.keyword === 'RUN' && i.args.includes('tools/deploy/build-app.ts'));
  if (!build) problems.push('the build stage must run tools/deploy/build-app.ts');
  else {
    if (!build.args.includes('build-app.ts "${APP}" /out')) problems.push('build-app.ts must build "${APP}"');
    if (!build.args.includes('scripts/prisma-generate.mjs'))
      problems.push('the build stage must generate the Prisma clients');
    const stage = stages.find((s) => s.name === build.stage);
    if (!stage?.instructions.some((i) => i.keyword === 'ARG' && i.args === 'APP' && i.line < build.line))
      problems.push('the build stage must declare ARG APP before it builds');
  }

  const imageInstructions = image.flatMap((s) => s.instructions);
  const own = (keyword: string): Instruction[] => imageInstructions.filter((i) => i.keyword === keyword);
  for (const copy of own('COPY')) {
    const from = copySources(copy)
      .flags.find((f) => f.startsWith('--from='))
      ?.slice(7);
    if (!from || !names.has(from))
      problems.push(`line ${copy.line}: the runtime stage copies only from build stages, not the context`);
  }
  const user = own('USER').pop();
  if (!user) problems.push('the runtime stage must set USER');
  else {
    const [uid] = user.args.split(':');
    if (!/^\d+$/.test(uid) || uid === '0')
      problems.push(`USER must be a numeric non-root uid (Kubernetes runAsNonRoot), got ${user.args}`);
    const lastRun = Math.max(0, ...own('RUN').map((r) => r.line));
    if (lastRun > user.line) problems.push('no RUN after USER in the runtime stage');
  }
  const env = own('ENV')
    .map((e) => e.args)
    .join(' ');
  if (!/\bNODE_ENV=production\b/.test(env)) problems.push('the runtime stage must set NODE_ENV=production');
  const health = own('HEALTHCHECK').pop();
  if (target === 'cli') {
    if (health?.args !== 'NONE') problems.push('the cli image runs jobs: HEALTHCHECK NONE');
    if (!own('ENTRYPOINT').length) problems.push('the cli image needs an ENTRYPOINT');
  } else {
    if (!health || !health.args.includes('/healthz')) problems.push('HEALTHCHECK must probe /healthz');
    if (health && !/CMD \[/.test(health.args)) problems.push('HEALTHCHECK must use the exec form');
    if (!own('EXPOSE').some((e) => e.args === '8080')) problems.push('EXPOSE 8080');
  }
  const cmd = [...own('ENTRYPOINT'), ...own('CMD')];
  for (const c of cmd) {
    try {
      if (!Array.isArray(JSON.parse(c.args))) throw new Error();
    } catch {
      problems.push(`line ${c.line}: ${c.keyword} must be exec form (JSON array) so the app gets SIGTERM`);
    }
  }
  // `node .` runs package.json's "main", which build-app.ts writes for the app APP names.
  const entry = own('ENTRYPOINT').pop() ?? own('CMD').pop();
  if (entry?.args !== '["node", "."]')
    problems.push(`the ${target} image must run ["node", "."] (package.json main)`);
  if (!own('COPY').some((c) => c.args === '--from=build /out/package.json ./package.json'))
    problems.push('the image must carry /out/package.json, whose main `node .` runs');
  if (target === 'platform') {
    if (!/\bDATA_DIR=\/data\b/.test(env)) problems.push('platform keeps its state in DATA_DIR=/data');
    if (!own('VOLUME').some((v) => v.args === '["/data"]'))
      problems.push('platform declares VOLUME ["/data"]');
    if (!own('COPY').some((c) => /--chown=1000:1000 \S+ \/data$/.test(c.args)))
      problems.push('/data must belong to uid 1000 (COPY --chown=1000:1000 … /data)');
  }

  // Everything copied from the context exists and survives .dockerignore.
  for (const copy of all.filter((i) => i.keyword === 'COPY')) {
    const { flags, sources } = copySources(copy);
    if (flags.some((f) => f.startsWith('--from='))) continue;
    for (const source of sources) {
      const path = source.replace(/\/$/, '');
      if (!existsSync(join(REPO_ROOT, path)))
        problems.push(`line ${copy.line}: COPY ${source} does not exist`);
      else if (dockerignore.ignores(path))
        problems.push(`line ${copy.line}: COPY ${source} is excluded by .dockerignore`);
    }
  }
  return problems;
}

describe('docker images', () => {
  it('every app has an image spec, and every spec an app', () => {
    expect(Object.keys(IMAGES).sort()).toEqual(apps);
  });

  it.each(targets)('docker/Dockerfile --target %s passes the lint', (target) => {
    expect(lintDockerfile(target, dockerfile)).toEqual([]);
  });

  it('the lint rejects what it should', () => {
    const lint = (text: string, target: ImageTarget = 'service') => lintDockerfile(target, text);
    expect(lint(dockerfile.replace('ARG NODE_IMAGE=node:24-slim', 'ARG NODE_IMAGE=node:24'))).toContainEqual(
      expect.stringContaining('node:24-slim'),
    );
    expect(lint(dockerfile.replace('USER 1000:1000', 'USER node'))).toContainEqual(
      expect.stringContaining('numeric non-root'),
    );
    expect(lint(dockerfile.replace('USER 1000:1000', 'USER 0'))).toContainEqual(
      expect.stringContaining('numeric non-root'),
    );
    expect(lint(dockerfile.replace(/HEALTHCHECK --interval[^\n]*\\\n[^\n]*\n/, ''))).toContainEqual(
      expect.stringContaining('HEALTHCHECK'),
    );
    expect(lint(dockerfile.replace('CMD ["node", "."]', 'CMD node .'))).toContainEqual(
      expect.stringContaining('exec form'),
    );
    expect(lint(dockerfile.replace('install --frozen-lockfile', 'install'))).toContainEqual(
      expect.stringContaining('--frozen-lockfile'),
    );
    expect(lint(dockerfile.replace('COPY --from=build /out/dist ./dist', 'COPY apps apps'))).toContainEqual(
      expect.stringContaining('only from build stages'),
    );
    expect(lint(dockerfile.replace('COPY scripts scripts', 'COPY bench bench'))).toContainEqual(
      expect.stringContaining('excluded by .dockerignore'),
    );
    expect(lint(dockerfile.replace('build-app.ts "${APP}"', 'build-app.ts job-service'))).toContainEqual(
      expect.stringContaining('must build "${APP}"'),
    );
    expect(lint(dockerfile.replace('FROM deps AS build\nARG APP\n', 'FROM deps AS build\n'))).toContainEqual(
      expect.stringContaining('ARG APP'),
    );
    expect(lint(dockerfile.replace('VOLUME ["/data"]', ''), 'platform')).toContainEqual(
      expect.stringContaining('VOLUME'),
    );
    expect(lint(dockerfile.replace('HEALTHCHECK NONE', ''), 'cli')).toContainEqual(
      expect.stringContaining('HEALTHCHECK NONE'),
    );
    expect(lint(dockerfile, 'worker' as ImageTarget)).toContainEqual(
      expect.stringContaining('no stage named'),
    );
  });

  it('the default target (no --target) is a service image', () => {
    const { stages } = parseDockerfile(dockerfile);
    expect(stages[stages.length - 1].name).toBe('service');
  });

  it('installs the pnpm version package.json pins', () => {
    const { packageManager } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      packageManager: string;
    };
    expect(dockerfile).toContain(`ARG PNPM_VERSION=${packageManager.replace(/^pnpm@/, '')}`);
  });

  it('docker/docker-bake.hcl builds every app from docker/Dockerfile with its APP and target', () => {
    const bake = readFileSync(join(REPO_ROOT, 'docker/docker-bake.hcl'), 'utf8');
    // One target forked by its matrix: one entry per app, each naming its app and Dockerfile target.
    const blocks = new Map(
      [...bake.matchAll(/^target "([\w-]+)" \{\n([\s\S]*?)^\}/gm)].map((m) => [m[1], m[2]]),
    );
    expect([...blocks.keys()]).toEqual(['app']);
    const app = blocks.get('app')!;
    expect(app).toMatch(/dockerfile = "docker\/Dockerfile"/);
    expect(/^group "default" \{\n\s*targets = \["app"\]/m.test(bake)).toBe(true);
    expect(app).toMatch(/^\s*name\s+= image\.app$/m);
    expect(app).toMatch(/^\s*args\s+= \{ APP = image\.app \}$/m);
    expect(app).toMatch(/^\s*target\s+= image\.target$/m);
    const images = new Map(
      [...app.matchAll(/\{ app = "([\w-]+)", target = "(\w+)"/g)].map((m) => [m[1], m[2]]),
    );
    expect([...images.keys()].sort()).toEqual(apps);
    for (const name of apps) expect([name, images.get(name)]).toEqual([name, IMAGES[name].target]);
  });

  it('.dockerignore keeps local state, secrets and tests out of the context', () => {
    for (const path of [
      'node_modules',
      'libs/services/job/node_modules',
      '.git',
      '.env',
      'deploy/compose/.env',
      '.data',
      '.cache',
      'libs/services/job/src/generated/prisma/client.ts',
      'libs/services/job/test/support/job-harness.ts',
      'libs/http/src/health/health.spec.ts',
      'apps/cli/src/commands/migrate.int-spec.ts',
      'docs/runbook.md',
      'deploy/compose/compose.yaml',
    ]) {
      expect([path, dockerignore.ignores(path)]).toEqual([path, true]);
    }
    for (const path of [
      'package.json',
      'pnpm-lock.yaml',
      'libs/services/job/src/job.module.ts',
      'libs/services/job/prisma/migrations/0001_jobs.sql',
      'libs/messaging/sql/0001_messaging.sql',
      'tools/deploy/build-app.ts',
      'scripts/prisma-generate.mjs',
    ]) {
      expect([path, dockerignore.ignores(path)]).toEqual([path, false]);
    }
  });
});
