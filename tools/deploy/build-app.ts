/**
 * Production build of one app, as the images' build stage runs it:
 *
 *   node -r @swc-node/register tools/deploy/build-app.ts <app> <outDir>
 *
 * Starting from `apps/<app>/src/main.ts` it compiles, with SWC and the repo's
 * `.swcrc` settings (decorator metadata included), exactly the files the app
 * reaches through its imports — its service library, the shared libraries it
 * uses, their generated Prisma clients — into `<outDir>/dist/<same path>.js`,
 * rewriting `@genasset/*` path aliases into relative requires. The runtime
 * files of every project it reaches (SQL migrations, Prisma schemas) are
 * copied beside them, so `join(__dirname, '../prisma/migrations')` still
 * resolves. Every npm package the compiled code requires must be a production
 * dependency of the root package.json, or the build fails naming the importer.
 *
 * `<outDir>/node_modules` is pruned to this app: the packages it requires and
 * their own production closure (dependencies, installed optional dependencies,
 * required peers, and optional peers only when the root lists them as
 * production dependencies), copied from pnpm's store layout with its relative
 * symlinks. Dev tools that a dependency merely peers with (the Prisma CLI and
 * TypeScript for @prisma/client) stay out.
 *
 * Apps that serve the web console (IMAGES in images.ts) also get its Vite build in
 * `<outDir>/dist/apps/console/dist`, where main.js finds it (../../console/dist from dist/apps/<app>/src).
 */
import { transformSync, type Options } from '@swc/core';
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { builtinModules } from 'node:module';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { IMAGES } from './images';

export const REPO_ROOT = resolve(__dirname, '../..');

export interface CompiledFile {
  /** Path relative to the repo root, `/`-separated, e.g. `libs/config/src/index.ts`. */
  source: string;
  /** Output path relative to `dist/`, e.g. `libs/config/src/index.js`. */
  output: string;
  code: string;
  map?: string;
}

export interface AppTrace {
  app: string;
  /** Compiled files reached from the app's main, keyed by source path. */
  files: Map<string, CompiledFile>;
  /** JSON files required by compiled code (copied as they are). */
  jsonFiles: Set<string>;
  /** npm packages required at run time → the source files requiring them. */
  packages: Map<string, Set<string>>;
  /** Project roots (directories with a project.json) the app reaches. */
  projects: Set<string>;
  /** Imports of generated files that do not exist (only tolerated with `allowMissingGenerated`). */
  missingGenerated: string[];
}

export interface TraceOptions {
  root?: string;
  /** Tests run without generated Prisma clients; the image build never does. */
  allowMissingGenerated?: boolean;
  /** Compiled files shared between traces of several apps. */
  cache?: Map<string, CompiledFile>;
}

const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const REQUIRE_CALL = /\brequire\((["'])([^"'\n]+)\1\)/g;

/** `@genasset/x` → `libs/x/src/index.ts`, from tsconfig.base.json. */
export function pathAliases(root = REPO_ROOT): Map<string, string> {
  const tsconfig = JSON.parse(readFileSync(join(root, 'tsconfig.base.json'), 'utf8')) as {
    compilerOptions: { paths: Record<string, string[]> };
  };
  return new Map(Object.entries(tsconfig.compilerOptions.paths).map(([alias, [target]]) => [alias, target]));
}

function swcOptions(root: string): Options {
  const rc = JSON.parse(readFileSync(join(root, '.swcrc'), 'utf8')) as Options & { $schema?: string };
  delete rc.$schema;
  return { ...rc, swcrc: false, configFile: false, sourceMaps: true, inlineSourcesContent: false };
}

function toPosix(path: string): string {
  return path.split(sep).join('/');
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Resolves a relative TypeScript import the way the compiler does: `x.ts`, `x/index.ts`, `x.json`. */
function resolveSource(fromDir: string, specifier: string): string | undefined {
  const base = resolve(fromDir, specifier);
  const stripped = base.replace(/\.js$/, '');
  for (const candidate of [`${stripped}.ts`, join(stripped, 'index.ts'), base]) {
    if (isFile(candidate)) return candidate;
  }
  return undefined;
}

export function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function projectRootOf(file: string, root: string): string | undefined {
  for (let dir = dirname(file); dir.startsWith(root) && dir !== root; dir = dirname(dir)) {
    if (existsSync(join(dir, 'project.json'))) return dir;
  }
  return undefined;
}

/** Follows every runtime `require` from the app's main; compiles what it reaches. */
export function traceApp(app: string, options: TraceOptions = {}): AppTrace {
  const root = options.root ?? REPO_ROOT;
  const aliases = pathAliases(root);
  const swc = swcOptions(root);
  const cache = options.cache ?? new Map<string, CompiledFile>();
  const main = join(root, 'apps', app, 'src', 'main.ts');
  if (!isFile(main)) throw new Error(`no such app: ${app} (expected ${relative(root, main)})`);

  const trace: AppTrace = {
    app,
    files: new Map(),
    jsonFiles: new Set(),
    packages: new Map(),
    projects: new Set(),
    missingGenerated: [],
  };
  const queue = [main];
  while (queue.length > 0) {
    const file = queue.pop()!;
    const source = toPosix(relative(root, file));
    if (trace.files.has(source)) continue;
    const project = projectRootOf(file, root);
    if (project) trace.projects.add(toPosix(relative(root, project)));

    let compiled = cache.get(source);
    if (!compiled) {
      const result = transformSync(readFileSync(file, 'utf8'), {
        ...swc,
        filename: file,
        sourceFileName: basename(file),
      });
      compiled = { source, output: source.replace(/\.ts$/, '.js'), code: result.code, map: result.map };
      cache.set(source, compiled);
    }
    const outputDir = dirname(compiled.output);
    const problems: string[] = [];
    const code = compiled.code.replace(REQUIRE_CALL, (call, quote: string, specifier: string) => {
      if (BUILTINS.has(specifier)) return call;
      if (specifier.startsWith('.')) {
        const target = resolveSource(dirname(file), specifier);
        if (!target) {
          if (options.allowMissingGenerated && specifier.includes('generated')) {
            trace.missingGenerated.push(`${source} → ${specifier}`);
          } else {
            problems.push(`cannot resolve "${specifier}"`);
          }
          return call;
        }
        if (target.endsWith('.json')) trace.jsonFiles.add(toPosix(relative(root, target)));
        else queue.push(target);
        return call;
      }
      const alias = aliases.get(specifier);
      if (alias) {
        const target = join(root, alias);
        if (!isFile(target)) {
          problems.push(`alias ${specifier} points to missing ${alias}`);
          return call;
        }
        queue.push(target);
        let rel = toPosix(relative(outputDir, alias.replace(/\.ts$/, '')));
        if (!rel.startsWith('.')) rel = `./${rel}`;
        return `require(${quote}${rel}${quote})`;
      }
      if (specifier.startsWith('@genasset/')) {
        problems.push(`"${specifier}" is not a path alias of tsconfig.base.json`);
        return call;
      }
      const name = packageName(specifier);
      const importers = trace.packages.get(name) ?? new Set<string>();
      importers.add(source);
      trace.packages.set(name, importers);
      return call;
    });
    if (problems.length > 0) throw new Error(`${source}: ${problems.join('; ')}`);
    trace.files.set(source, { ...compiled, code });
  }
  return trace;
}

/**
 * Packages the compiled app requires that a production install would not
 * provide: not in the root package.json's `dependencies`.
 */
export function missingProductionDependencies(trace: AppTrace, root = REPO_ROOT): string[] {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const production = new Set(Object.keys(manifest.dependencies ?? {}));
  const development = new Set(Object.keys(manifest.devDependencies ?? {}));
  return [...trace.packages.entries()]
    .filter(([name]) => !production.has(name))
    .map(([name, importers]) => {
      const where = [...importers].sort().join(', ');
      return development.has(name)
        ? `${name} is a devDependency but ${trace.app} requires it at run time (${where}): move it to "dependencies"`
        : `${name} is required by ${trace.app} (${where}) but is not a dependency in package.json`;
    })
    .sort();
}

/** Files a project needs at run time besides its code: SQL migrations, Prisma schemas, data files. */
export function runtimeAssets(project: string, root = REPO_ROOT): string[] {
  const skipDirs = new Set(['node_modules', 'test', 'generated', 'dist', '__fixtures__']);
  const skipFile = (name: string) =>
    name.endsWith('.ts') ||
    name.endsWith('.md') ||
    name === 'project.json' ||
    name === 'package.json' ||
    name.startsWith('tsconfig') ||
    name.startsWith('.');
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!skipDirs.has(entry.name)) walk(path);
      } else if (entry.isFile() && !skipFile(entry.name)) {
        found.push(path);
      }
    }
  };
  walk(project);
  return found.sort();
}

interface PackageManifest {
  name: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

function readManifest(dir: string): PackageManifest {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageManifest;
}

/**
 * The production closure of `packages` in a pnpm `node_modules`: each
 * package's real directory (inside `.pnpm/<id>/node_modules/`). A package's
 * dependencies are its siblings there; `pnpm install` resolved them.
 */
export function packageClosure(packages: Iterable<string>, root = REPO_ROOT): Set<string> {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as PackageManifest;
  const production = new Set(Object.keys(manifest.dependencies ?? {}));
  const included = new Set<string>();
  const visit = (dir: string, via: string) => {
    if (!existsSync(dir)) throw new Error(`package ${via} is not installed (${dir})`);
    const real = realpathSync(dir);
    if (included.has(real)) return;
    included.add(real);
    const pkg = readManifest(real);
    // pnpm layout: .pnpm/<id>/node_modules/<name> — siblings are the resolved dependencies.
    const siblings = resolve(real, ...pkg.name.split('/').map(() => '..'));
    const wanted = [
      ...Object.keys(pkg.dependencies ?? {}).map((name) => ({ name, required: true })),
      ...Object.keys(pkg.optionalDependencies ?? {}).map((name) => ({ name, required: false })),
      ...Object.keys(pkg.peerDependencies ?? {})
        .filter((name) => !pkg.peerDependenciesMeta?.[name]?.optional || production.has(name))
        .map((name) => ({ name, required: !pkg.peerDependenciesMeta?.[name]?.optional })),
    ];
    for (const { name, required } of wanted) {
      const candidates = [
        join(real, 'node_modules', name),
        join(siblings, name),
        join(root, 'node_modules', name),
      ];
      const found = candidates.find((c) => existsSync(c));
      if (found) visit(found, `${pkg.name} → ${name}`);
      else if (required && !pkg.optionalDependencies?.[name])
        throw new Error(`${pkg.name} needs ${name}, which is not installed`);
    }
  };
  for (const name of packages) visit(join(root, 'node_modules', name), name);
  return included;
}

/**
 * Copies the closure into `<outDir>/node_modules` in pnpm's layout: each
 * `.pnpm/<id>` entry with the packages of the closure and their sibling
 * symlinks, and a top-level symlink per package the app requires. Symlinks to
 * packages outside the closure dangle, as nothing requires them.
 */
export function writeNodeModules(required: Iterable<string>, outDir: string, root = REPO_ROOT): number {
  const packages = [...required];
  const sourceModules = join(root, 'node_modules');
  const store = join(sourceModules, '.pnpm');
  const target = join(outDir, 'node_modules');
  const closure = packageClosure(packages, root);
  for (const dir of closure) {
    const rel = relative(sourceModules, dir);
    if (rel.startsWith('..')) throw new Error(`package outside node_modules: ${dir}`);
    cpSync(dir, join(target, rel), { recursive: true, verbatimSymlinks: true });
    // The sibling symlinks of a .pnpm/<id>/node_modules entry are its dependencies.
    if (rel.startsWith(`.pnpm${sep}`)) {
      const modules = join(store, rel.split(sep)[1], 'node_modules');
      const links = readdirSync(modules).flatMap((entry) =>
        entry.startsWith('@') ? readdirSync(join(modules, entry)).map((e) => `${entry}/${e}`) : [entry],
      );
      for (const link of links) {
        const from = join(modules, link);
        const to = join(target, relative(sourceModules, from));
        if (lstatSync(from).isSymbolicLink() && !lstatSafe(to)) {
          mkdirSync(dirname(to), { recursive: true });
          symlinkSync(readlinkSync(from), to);
        }
      }
    }
  }
  // pnpm's hoisted links (.pnpm/node_modules) serve packages that require an
  // undeclared dependency; keep those that point into the closure.
  const hoisted = join(store, 'node_modules');
  if (existsSync(hoisted)) {
    for (const entry of readdirSync(hoisted)) {
      const names = entry.startsWith('@')
        ? readdirSync(join(hoisted, entry)).map((e) => `${entry}/${e}`)
        : [entry];
      for (const name of names) {
        const from = join(hoisted, name);
        if (!lstatSync(from).isSymbolicLink() || !existsSync(from) || !closure.has(realpathSync(from)))
          continue;
        const to = join(target, relative(sourceModules, from));
        mkdirSync(dirname(to), { recursive: true });
        symlinkSync(readlinkSync(from), to);
      }
    }
  }
  for (const name of packages) {
    const link = join(target, name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(
      relative(dirname(link), join(target, relative(sourceModules, realpathSync(join(sourceModules, name))))),
      link,
    );
  }
  return closure.size;
}

function lstatSafe(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Writes `<outDir>/dist/**` (compiled code, source maps, runtime assets) and `<outDir>/package.json`. */
export function writeBuild(
  trace: AppTrace,
  outDir: string,
  root = REPO_ROOT,
): { files: number; assets: number } {
  const dist = join(outDir, 'dist');
  const write = (path: string, content: string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  };
  for (const file of trace.files.values()) {
    const target = join(dist, file.output);
    write(target, file.map ? `${file.code}\n//# sourceMappingURL=${basename(target)}.map\n` : file.code);
    if (file.map) write(`${target}.map`, file.map);
  }
  const assets = new Set(trace.jsonFiles);
  for (const project of trace.projects) for (const asset of runtimeAssets(project, root)) assets.add(asset);
  for (const asset of assets) {
    mkdirSync(dirname(join(dist, asset)), { recursive: true });
    copyFileSync(join(root, asset), join(dist, asset));
  }
  const info = {
    app: trace.app,
    main: `dist/apps/${trace.app}/src/main.js`,
    packages: [...trace.packages.keys()].sort(),
    projects: [...trace.projects].sort(),
  };
  write(join(dist, 'build-info.json'), `${JSON.stringify(info, null, 2)}\n`);
  write(
    join(outDir, 'package.json'),
    `${JSON.stringify({ name: `genasset-${trace.app}`, private: true, type: 'commonjs', main: info.main }, null, 2)}\n`,
  );
  return { files: trace.files.size, assets: assets.size };
}

function main(argv: string[]): void {
  const [app, outDir] = argv;
  if (!app || !outDir) {
    console.error('usage: node -r @swc-node/register tools/deploy/build-app.ts <app> <outDir>');
    process.exit(2);
  }
  const trace = traceApp(app);
  const missing = missingProductionDependencies(trace);
  if (missing.length > 0) {
    console.error(
      `${app}: the production image would lack packages it requires:\n  - ${missing.join('\n  - ')}`,
    );
    process.exit(1);
  }
  const written = writeBuild(trace, resolve(outDir));
  const installed = writeNodeModules(trace.packages.keys(), resolve(outDir));
  if (IMAGES[app]?.console) {
    const vite = join(REPO_ROOT, 'node_modules/.bin/vite');
    const consoleOut = join(resolve(outDir), 'dist/apps/console/dist');
    const args = ['build', 'apps/console', '--outDir', consoleOut, '--emptyOutDir', '--logLevel', 'warn'];
    const build = spawnSync(vite, args, { cwd: REPO_ROOT, stdio: 'inherit' });
    if (build.status !== 0) {
      console.error(`${app}: the web console's build failed (vite ${args.join(' ')})`);
      process.exit(1);
    }
  }
  console.log(
    `${app}: ${written.files} compiled files, ${written.assets} runtime assets; ` +
      `requires ${trace.packages.size} npm packages, ${installed} with their production dependencies → ${resolve(outDir)}`,
  );
}

if (require.main === module) main(process.argv.slice(2));
