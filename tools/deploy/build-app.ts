/**
 * Production build of one app, as the image's build stage runs it:
 *
 *   node -r @swc-node/register tools/deploy/build-app.ts <app> <outDir>
 *
 * esbuild bundles the workspace code the app reaches from `apps/<app>/src/main.ts` (its service
 * library, the shared libraries, their generated Prisma clients; `@genasset/*` resolved through
 * tsconfig paths) into `<outDir>/dist/main.js` with a source map. npm packages stay external.
 * TypeScript goes through SWC with the repo's `.swcrc` on the way in, because esbuild does not emit
 * the decorator metadata NestJS injects by. `__dirname` keeps meaning each source file's directory
 * (`join(__dirname, '../prisma/migrations')`): the runtime files of every project the bundle reaches
 * (SQL migrations, Prisma schemas, workflow templates) are copied to `<outDir>/dist/<same path>`.
 *
 * Every npm package the bundle requires must be a production dependency of the root package.json,
 * or the build fails naming the importer. `<outDir>/node_modules` gets those packages and their
 * production closure (node-modules.ts). Apps that serve the web console (IMAGES in images.ts) also
 * get its Vite build in `<outDir>/dist/apps/console/dist`, where main.ts looks for it.
 * `<outDir>/package.json` names `dist/main.js` as main, so the image runs `node .`.
 */
import { transformSync, type Options } from '@swc/core';
import { build, type Metafile, type Plugin } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { IMAGES, REPO_ROOT } from './images';
import { writeNodeModules } from './node-modules';

export { REPO_ROOT };

export interface AppBundle {
  app: string;
  /** Repo-relative source files in the bundle. */
  inputs: string[];
  /** npm packages the bundle requires at run time → the source files requiring them. */
  packages: Map<string, Set<string>>;
  /** Project roots (directories with a project.json) the bundle reaches. */
  projects: Set<string>;
}

const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

export function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const toPosix = (path: string) => path.split(sep).join('/');

/** TypeScript through SWC (decorator metadata); `__dirname` pinned to the source's directory under dist/. */
function swcPlugin(root: string): Plugin {
  const rc = JSON.parse(readFileSync(join(root, '.swcrc'), 'utf8')) as Options & { $schema?: string };
  delete rc.$schema;
  return {
    name: 'swc-decorator-metadata',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) => {
        const { code } = transformSync(readFileSync(args.path, 'utf8'), {
          ...rc,
          swcrc: false,
          configFile: false,
          filename: args.path,
          sourceMaps: 'inline',
          module: { type: 'es6' },
        });
        // dist/main.js sits at the top of a tree laid out like the repository.
        const dir = JSON.stringify(toPosix(relative(root, dirname(args.path))));
        const contents = code.replace(/\b__dirname\b/g, `require("node:path").join(__dirname, ${dir})`);
        return { contents, loader: 'js', resolveDir: dirname(args.path) };
      });
    },
  };
}

function projectRootOf(file: string, root: string): string | undefined {
  for (let dir = dirname(join(root, file)); dir.startsWith(root) && dir !== root; dir = dirname(dir)) {
    if (existsSync(join(dir, 'project.json'))) return toPosix(relative(root, dir));
  }
  return undefined;
}

/**
 * Bundles `apps` in one esbuild run (the specs build all eight at once), each into
 * `<outDir>/<entry(app)>.js` (`<outDir>/<app>/dist/main.js` by default); returns what each reached.
 */
export async function bundleApps(
  apps: string[],
  outDir: string,
  entry: (app: string) => string = (app) => `${app}/dist/main`,
  root = REPO_ROOT,
): Promise<AppBundle[]> {
  for (const app of apps)
    if (!existsSync(join(root, 'apps', app, 'src/main.ts')))
      throw new Error(`no such app: ${app} (expected apps/${app}/src/main.ts)`);
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(apps.map((app) => [entry(app), `apps/${app}/src/main.ts`])),
    outdir: outDir,
    bundle: true,
    packages: 'external',
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
    tsconfig: join(root, 'tsconfig.base.json'),
    plugins: [swcPlugin(root)],
  });
  return apps.map((app) => describeBundle(app, metafile, root));
}

function describeBundle(app: string, metafile: Metafile, root: string): AppBundle {
  const output = Object.entries(metafile.outputs).find(([, o]) =>
    o.entryPoint?.endsWith(`apps/${app}/src/main.ts`),
  );
  if (!output) throw new Error(`esbuild produced no bundle for ${app}`);
  const inputs = Object.keys(output[1].inputs).sort();
  const packages = new Map<string, Set<string>>();
  for (const input of inputs) {
    for (const { path, external } of metafile.inputs[input]?.imports ?? []) {
      if (!external || BUILTINS.has(path)) continue;
      const importers = packages.get(packageName(path)) ?? new Set<string>();
      importers.add(input);
      packages.set(packageName(path), importers);
    }
  }
  const projects = new Set(inputs.map((i) => projectRootOf(i, root)).filter((p): p is string => !!p));
  return { app, inputs, packages, projects };
}

/**
 * Packages the bundle requires that a production install would not provide: not in the root
 * package.json's `dependencies`.
 */
export function missingProductionDependencies(bundle: AppBundle, root = REPO_ROOT): string[] {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  };
  const production = new Set(Object.keys(manifest.dependencies ?? {}));
  const development = new Set(Object.keys(manifest.devDependencies ?? {}));
  return [...bundle.packages.entries()]
    .filter(([name]) => !production.has(name))
    .map(([name, importers]) => {
      const where = [...importers].sort().join(', ');
      return development.has(name)
        ? `${name} is a devDependency but ${bundle.app} requires it at run time (${where}): move it to "dependencies"`
        : `${name} is required by ${bundle.app} (${where}) but is not a dependency in package.json`;
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

/** Copies the runtime assets beside the bundle, writes `dist/build-info.json` and `package.json`. */
export function writeAppFiles(bundle: AppBundle, appDir: string, root = REPO_ROOT): number {
  const dist = join(appDir, 'dist');
  const assets = [...bundle.projects].flatMap((project) => runtimeAssets(project, root));
  for (const asset of assets) {
    mkdirSync(dirname(join(dist, asset)), { recursive: true });
    copyFileSync(join(root, asset), join(dist, asset));
  }
  const info = {
    app: bundle.app,
    main: 'dist/main.js',
    packages: [...bundle.packages.keys()].sort(),
    projects: [...bundle.projects].sort(),
  };
  writeFileSync(join(dist, 'build-info.json'), `${JSON.stringify(info, null, 2)}\n`);
  const manifest = { name: `genasset-${bundle.app}`, private: true, type: 'commonjs', main: info.main };
  writeFileSync(join(appDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return assets.length;
}

async function main(argv: string[]): Promise<void> {
  const [app, outDir] = argv;
  if (!app || !outDir) {
    console.error('usage: node -r @swc-node/register tools/deploy/build-app.ts <app> <outDir>');
    process.exit(2);
  }
  const out = resolve(outDir);
  const [bundle] = await bundleApps([app], out, () => 'dist/main');
  const missing = missingProductionDependencies(bundle);
  if (missing.length > 0) {
    console.error(
      `${app}: the production image would lack packages it requires:\n  - ${missing.join('\n  - ')}`,
    );
    process.exit(1);
  }
  const assets = writeAppFiles(bundle, out);
  const installed = writeNodeModules(bundle.packages.keys(), out);
  if (IMAGES[app]?.console) {
    const args = ['build', 'apps/console', '--outDir', join(out, 'dist/apps/console/dist'), '--emptyOutDir'];
    const vite = spawnSync(join(REPO_ROOT, 'node_modules/.bin/vite'), [...args, '--logLevel', 'warn'], {
      cwd: REPO_ROOT,
      stdio: 'inherit',
    });
    if (vite.status !== 0) {
      console.error(`${app}: the web console's build failed (vite ${args.join(' ')})`);
      process.exit(1);
    }
  }
  console.log(
    `${app}: ${bundle.inputs.length} sources bundled, ${assets} runtime assets; ` +
      `requires ${bundle.packages.size} npm packages, ${installed} with their production dependencies → ${out}`,
  );
}

if (require.main === module)
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
