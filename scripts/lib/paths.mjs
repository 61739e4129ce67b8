import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** Build outputs that survive between runs (compiled broker launcher, dummy engine); git-ignored. */
export const CACHE_DIR = join(REPO_ROOT, '.cache');

/** Binaries of the repo's own node_modules, so no step depends on a global install. */
export function bin(name) {
  return join(REPO_ROOT, 'node_modules', '.bin', name);
}
