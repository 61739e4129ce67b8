// TypeScript for the product's own processes, compiled once and cached on disk.
//
// `node -r @swc-node/register` compiles every file at each start and keeps, for the
// process's whole life, @swc/core's native binding and the TypeScript compiler (it
// parses tsconfig with it): ~100 MB of the embedded platform's idle RSS. Here the
// same SWC transform (the options jest uses, so tests and `npm start` run the same
// code) writes each file's JavaScript to a cache keyed by its content; `warm`
// fills it ahead of a start in a short-lived process, and `register.cjs` only
// reads it, loading SWC only when a file is missing (a file edited since).
'use strict';
const { createHash } = require('node:crypto');
const { mkdirSync, readFileSync, renameSync, writeFileSync, readdirSync, existsSync } = require('node:fs');
const { basename, dirname, join, resolve } = require('node:path');

const ROOT = resolve(__dirname, '../..');
const CACHE_DIR = join(ROOT, 'node_modules', '.cache', 'genasset-ts');

/** tsconfig.base.json's path aliases, which SWC rewrites into relative requires at compile time. */
function swcOptions() {
  const { compilerOptions } = JSON.parse(readFileSync(join(ROOT, 'tsconfig.base.json'), 'utf8'));
  return {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      keepClassNames: true,
      baseUrl: ROOT,
      paths: compilerOptions.paths,
    },
    module: { type: 'commonjs' },
    // Beside the code, not inline: V8 keeps every script's source text for the process's
    // life, and inline maps more than doubled it. Node reads them with --enable-source-maps.
    sourceMaps: true,
  };
}

let options;
let version;
/** Changes when the options or SWC change: every cached file is then compiled again. */
function cacheVersion() {
  if (version === undefined) {
    options = swcOptions();
    const swcVersion = JSON.parse(readFileSync(require.resolve('@swc/core/package.json'), 'utf8')).version;
    version = createHash('sha1').update(JSON.stringify(options)).update(swcVersion).digest('hex').slice(0, 12);
  }
  return version;
}

function cachePath(filename, source) {
  const key = createHash('sha1').update(cacheVersion()).update(filename).update('\0').update(source).digest('hex');
  return join(CACHE_DIR, key.slice(0, 2), `${key}.js`);
}

/** The file's JavaScript: from the cache, else compiled now (and cached). */
function compiled(filename, source = readFileSync(filename, 'utf8')) {
  const path = cachePath(filename, source);
  try {
    return readFileSync(path, 'utf8');
  } catch {
    const { transformSync } = require('@swc/core');
    const output = transformSync(source, { ...options, filename });
    const code = `${output.code}\n//# sourceMappingURL=${basename(path)}.map\n`;
    mkdirSync(dirname(path), { recursive: true });
    // Written beside, then renamed: a parallel start never reads half a file (the map first:
    // the code's presence is what marks the entry complete).
    writeAtomically(`${path}.map`, output.map ?? '{}');
    writeAtomically(path, code);
    return code;
  }
}

function writeAtomically(path, content) {
  const partial = `${path}.${process.pid}`;
  writeFileSync(partial, content);
  renameSync(partial, path);
}

/** Compiles what is missing from the cache under the given directories; returns how many files it compiled. */
function warm(dirs) {
  let count = 0;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'test' || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') && !entry.name.endsWith('.spec.ts')) {
        const source = readFileSync(path, 'utf8');
        if (!existsSync(cachePath(path, source))) {
          compiled(path, source);
          count += 1;
        }
      }
    }
  };
  for (const dir of dirs) walk(resolve(ROOT, dir));
  return count;
}

module.exports = { compiled, warm, CACHE_DIR };

// `node tools/ts-runtime/compile-cache.cjs apps libs`: fills the cache in a process of its own,
// so SWC's memory is given back before the product starts.
if (require.main === module) {
  const started = Date.now();
  const count = warm(process.argv.slice(2));
  if (count > 0) console.log(`   compiled ${count} TypeScript files in ${Date.now() - started} ms (cache: ${CACHE_DIR})`);
}
