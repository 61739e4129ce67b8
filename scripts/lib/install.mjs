import { existsSync, readdirSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { header, info, warn } from './log.mjs';
import { REPO_ROOT } from './paths.mjs';
import { isRoot, run, which } from './processes.mjs';

/** pnpm writes this after every install; older than the lockfile means the lockfile moved on. */
const MODULES_MARKER = join(REPO_ROOT, 'node_modules', '.modules.yaml');
const LOCKFILE = join(REPO_ROOT, 'pnpm-lock.yaml');

export async function ensureNodeModules() {
  if (existsSync(MODULES_MARKER) && statSync(MODULES_MARKER).mtimeMs >= statSync(LOCKFILE).mtimeMs) return;
  header('install npm dependencies (pnpm install --frozen-lockfile)');
  // corepack fails its signature check on these machines, so a pinned pnpm comes through npx.
  const [command, ...prefix] = which('pnpm') ? ['pnpm'] : ['npx', '-y', `pnpm@${pinnedPnpmVersion()}`];
  const code = await run(command, [...prefix, 'install', '--frozen-lockfile']);
  if (code !== 0) throw new Error(`pnpm install failed (exit ${code})`);
  // A no-op install may leave the marker untouched; without this every run would reinstall.
  const now = new Date();
  utimesSync(MODULES_MARKER, now, now);
}

function pinnedPnpmVersion() {
  const { packageManager = '' } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
  return /^pnpm@([\w.-]+)/.exec(packageManager)?.[1] ?? '10.34.8';
}

/** Directory holding initdb and pg_ctl: Debian's newest /usr/lib/postgresql/<v>/bin, else PATH (Homebrew, other distros). */
export function findPostgresBin() {
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    const versions = readdirSync(base)
      .filter((v) => ['initdb', 'pg_ctl'].every((b) => existsSync(join(base, v, 'bin', b))))
      .sort((a, b) => Number(b) - Number(a));
    if (versions.length) return join(base, versions[0], 'bin');
  }
  const initdb = which('initdb');
  return initdb && which('pg_ctl') ? join(initdb, '..') : null;
}

function hasRdkafkaHeaders() {
  return ['/usr/include', '/usr/local/include', '/opt/homebrew/include'].some((dir) =>
    existsSync(join(dir, 'librdkafka', 'rdkafka_mock.h')),
  );
}

/** nginx, the gateway of the distributed end-to-end test; Debian installs it in /usr/sbin, often not on a user's PATH. */
export function findNginx() {
  return which('nginx') ?? ['/usr/sbin/nginx', '/usr/local/sbin/nginx'].find((p) => existsSync(p)) ?? null;
}

/** Chromium for the console's browser test (Debian: /usr/bin/chromium); CHROMIUM_PATH names another. */
export function findChromium() {
  if (process.env.CHROMIUM_PATH) return existsSync(process.env.CHROMIUM_PATH) ? process.env.CHROMIUM_PATH : null;
  return which('chromium') ?? ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p)) ?? null;
}

/**
 * Debian packages the local-process services need (`services`): PostgreSQL server, librdkafka +
 * gcc for the broker launcher; with `gateway`, nginx for the distributed test
 * (apps/platform/test/distributed), and with `browser`, chromium for the console's browser test
 * (apps/console/test): only those tests need them, so without root they are named, not required.
 */
export async function ensureSystemPackages({ services = true, gateway = false, browser = false } = {}) {
  const missing = [];
  if (services && !findPostgresBin()) missing.push('postgresql');
  if (services && !hasRdkafkaHeaders()) missing.push('librdkafka-dev');
  if (services && !which('gcc')) missing.push('gcc');
  if (gateway && !findNginx()) missing.push('nginx');
  if (browser && !findChromium()) missing.push('chromium');
  if (!missing.length) return;

  const optional = { nginx: 'the distributed test', chromium: "the console's browser test" };
  if ((!isRoot() || !which('apt-get')) && missing.every((name) => name in optional)) {
    for (const name of missing) {
      warn(`${name} is not installed: ${optional[name]} will fail (Debian/Ubuntu: sudo apt-get install -y ${name}${name === 'chromium' ? '; or set CHROMIUM_PATH' : ''})`);
    }
    return;
  }
  if (!isRoot() || !which('apt-get')) {
    throw new Error(
      `missing system packages: ${missing.join(' ')}.\n` +
        `  Install them (Debian/Ubuntu: sudo apt-get install -y ${missing.join(' ')}) and run npm test again,\n` +
        '  or point TEST_DATABASE_URL, KAFKA_BROKERS and S3_ENDPOINT at running services.',
    );
  }
  header(`install system packages: ${missing.join(' ')}`);
  // RUNLEVEL=1: Debian's maintainer scripts must not start the packages' own system services
  // (an nginx on :80, a second PostgreSQL); the tests start their own.
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive', RUNLEVEL: '1' };
  if ((await run('apt-get', ['update', '-q'], { env })) !== 0) throw new Error('apt-get update failed');
  if ((await run('apt-get', ['install', '-y', '-q', ...missing], { env })) !== 0) {
    throw new Error(`apt-get install ${missing.join(' ')} failed`);
  }
  if (services && !findPostgresBin()) throw new Error('postgresql installed, but initdb/pg_ctl are still not found');
  info(`installed ${missing.join(' ')}`);
}
