import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { header, info } from './log.mjs';
import { bin, REPO_ROOT } from './paths.mjs';
import { run } from './processes.mjs';

const APP = join(REPO_ROOT, 'apps/console');
export const CONSOLE_DIST = join(APP, 'dist');
const BUILT_INDEX = join(CONSOLE_DIST, 'index.html');
/** What the bundle is made of: its sources and config, and the dependencies (the lockfile). */
const INPUTS = [join(APP, 'src'), join(APP, 'index.html'), join(APP, 'vite.config.mts'), join(REPO_ROOT, 'pnpm-lock.yaml')];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

/**
 * Builds the web console (apps/console, Vite) when its build is missing or older than any of its
 * inputs. The build is not committed; the platform serves apps/console/dist at /console. A Vite
 * build takes about a second.
 */
export async function ensureConsoleBuilt({ force = false } = {}) {
  const built = existsSync(BUILT_INDEX) ? statSync(BUILT_INDEX).mtimeMs : 0;
  if (!force && built && built >= Math.max(...INPUTS.map(newestMtime))) return;
  header(`build the web console (vite build apps/console)${built ? ': sources changed' : ''}`);
  const code = await run(bin('vite'), ['build', APP, '--logLevel', 'warn'], {
    env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
  });
  if (code !== 0) throw new Error(`the console build failed (exit ${code})`);
  info(`built into ${CONSOLE_DIST}`);
}
