#!/usr/bin/env node
// Generates the Prisma client of every library that owns a schema
// (libs/**/prisma/schema.prisma). `npm run generate`; `--force` regenerates all.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { info } from './lib/log.mjs';
import { bin, CACHE_DIR, REPO_ROOT } from './lib/paths.mjs';
import { capture } from './lib/processes.mjs';

export async function generatePrismaClients({ force = false } = {}) {
  const schemas = findSchemas(join(REPO_ROOT, 'libs'));
  const env = {
    ...process.env,
    // Prisma 7's CLI demands the native schema engine even for `generate`, and
    // downloads it from a host these machines cannot reach; generate never
    // runs it, so any existing file satisfies the check.
    PRISMA_SCHEMA_ENGINE_BINARY: schemaEnginePlaceholder(),
    // No update/telemetry check: it would wait on an unreachable host.
    CHECKPOINT_DISABLE: '1',
    PRISMA_HIDE_UPDATE_MESSAGE: '1',
  };
  const installedAt = mtime(join(REPO_ROOT, 'node_modules', '.modules.yaml'));
  let generated = 0;
  for (const schema of schemas) {
    const output = outputDir(schema);
    const name = relative(REPO_ROOT, schema);
    // The output dir is touched after each generate: newer than the schema and
    // than the last install (a Prisma upgrade) means the client is current.
    if (!force && existsSync(output) && mtime(output) > Math.max(mtime(schema), installedAt)) continue;
    const { code, stdout, stderr } = await capture(bin('prisma'), ['generate', '--schema', schema], { env });
    if (code !== 0)
      throw new Error(`prisma generate --schema ${name} failed (exit ${code}):\n${stdout}${stderr}`);
    const now = new Date();
    utimesSync(output, now, now);
    info(`generated ${relative(REPO_ROOT, output)}`);
    generated++;
  }
  info(
    `${schemas.length} Prisma schema(s), ${generated} regenerated, ${schemas.length - generated} up to date`,
  );
}

function findSchemas(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === 'node_modules' || entry.name === 'generated') continue;
    const path = join(dir, entry.name);
    if (entry.name === 'prisma' && existsSync(join(path, 'schema.prisma')))
      found.push(join(path, 'schema.prisma'));
    else found.push(...findSchemas(path));
  }
  return found.sort();
}

/** The generator's `output`, relative to the schema file as Prisma resolves it. */
function outputDir(schema) {
  const source = readFileSync(schema, 'utf8');
  const generator = /generator\s+\w+\s*\{([^}]*)\}/.exec(source)?.[1] ?? '';
  const output = /^\s*output\s*=\s*"([^"]+)"/m.exec(generator)?.[1] ?? '../src/generated/prisma';
  return resolve(dirname(schema), output);
}

function schemaEnginePlaceholder() {
  const given = process.env.PRISMA_SCHEMA_ENGINE_BINARY;
  if (given && existsSync(given)) return given;
  const placeholder = join(CACHE_DIR, 'prisma-schema-engine-placeholder');
  if (!existsSync(placeholder)) {
    mkdirSync(CACHE_DIR, { recursive: true });
    writeFileSync(
      placeholder,
      '#!/bin/sh\necho "placeholder: the schema engine is not available here" >&2\nexit 1\n',
      { mode: 0o755 },
    );
  }
  return placeholder;
}

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  generatePrismaClients({ force: process.argv.includes('--force') }).catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
