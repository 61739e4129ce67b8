/**
 * The production node_modules of one app: the npm packages its bundle requires and their
 * production closure, copied from pnpm's layout (`.pnpm/<id>/node_modules`, relative symlinks).
 *
 * Why not `pnpm deploy --prod`: the apps are not workspace packages (one root package.json holds
 * every dependency), and a production install of the root gives every image every production
 * dependency plus the peers the lockfile resolved: measured 2026-11-27, 510 MB of node_modules
 * with the Prisma CLI, TypeScript and React, against 293 MB for asset-service from this closure.
 */
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  symlinkSync,
} from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { REPO_ROOT } from './images';

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
