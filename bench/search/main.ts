/**
 * bench/search: POST /v1/search/assets over 100,000 assets, through the real
 * asset-service (its own process, bench/assets/service.main.ts), each query
 * beside the same SQL run bare on a pg client, in the same run, on the same
 * database. Run: `npm run bench:search` (see README.md).
 */
import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { IDENTITY_SCHEMA } from '@genasset/identity';
import { parseFilter } from '@genasset/http';
import { migrate, PgliteConnection, PostgresConnection, type DatabaseConnection } from '@genasset/persistence';
import { ASSET_SCHEMA } from '@genasset/service-asset';
import { createTestDatabase, s3Env, testServices, waitFor } from '@genasset/testing';
import { ASSET_FILTER_SPEC, buildSearchQueries, SearchAssetsRepository, type SearchCriteria } from '../../libs/services/asset/src/search/search-assets.repository';
import { describeMode, VectorIndex } from '../../libs/services/asset/src/search/vector-index';

const env = process.env;
const TOTAL = Number(env.BENCH_ASSETS ?? 100_000);
/** Share of the rows in the searched project (the others share the table and its indexes). */
const BENCH_SHARE = 0.25;
const TEXT_RUNS = Number(env.BENCH_TEXT_RUNS ?? 200);
const VECTOR_RUNS = Number(env.BENCH_VECTOR_RUNS ?? 30);
const TARGET_P99_MS = 50;
const REPO = resolve(__dirname, '../..');

const WORDS = ['lighthouse', 'forest', 'castle', 'robot', 'dragon', 'city', 'ocean', 'desert', 'portrait', 'cat', 'mountain', 'ship', 'garden', 'neon', 'winter', 'temple'];
const STYLES = ['watercolor', 'photo', 'pixel art', 'oil painting', 'sketch', 'isometric', 'cinematic', 'low poly'];

async function startService(extraEnv: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const log = resolve(REPO, '.cache/bench-search-service.log');
  const out = createWriteStream(log);
  const child = spawn(process.execPath, ['-r', '@swc-node/register', resolve(REPO, 'bench/assets/service.main.ts')], {
    cwd: REPO,
    env: { ...env, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr!.pipe(out);
  const url = await new Promise<string>((ok, fail) => {
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out.write(chunk);
      buffer = (buffer + chunk.toString()).slice(-10_000);
      const match = /READY (\S+)/.exec(buffer);
      if (match) ok(match[1].replace('0.0.0.0', '127.0.0.1'));
    });
    child.once('exit', (code) => fail(new Error(`service exited with ${code} (log: ${log})`)));
    setTimeout(() => fail(new Error(`service not ready after 120 s (log: ${log})`)), 120_000).unref();
  });
  return { url, child };
}

async function admin(url: string, token: string, path: string, body: unknown): Promise<Record<string, any>> {
  const res = await fetch(`${url}/admin/v1/${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`admin ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, any>;
}

/**
 * 100,000 rows in SQL: names, prompts and tags drawn from small vocabularies
 * (so a word matches a realistic few percent of rows), creation times over a
 * year. Rows of the searched project get a random unit-length 1024-number
 * embedding (the other projects' rows none: a similarity search reads only
 * the caller's project, and 400 MB of vectors would only slow the seeding).
 */
async function seed(db: DatabaseConnection, projects: { teamId: string; projectId: string }[]): Promise<void> {
  const chunk = 20_000;
  for (let from = 1; from <= TOTAL; from += chunk) {
    const to = Math.min(TOTAL, from + chunk - 1);
    await db.query(
      `INSERT INTO assets.assets (id, team_id, project_id, author_id, type, kind, mime_type, privacy, name, tags,
                                  storage_key, properties, metadata, embedding, created_at, updated_at)
       SELECT 'asset_' || upper(lpad(to_hex(g), 26, '0')), p.team_id, p.project_id, 'key_' || (g % 7),
              CASE WHEN g % 3 = 0 THEN 'uploaded' ELSE 'inference-txt2img' END, 'image', 'image/png',
              CASE WHEN g % 20 = 0 THEN 'public' ELSE 'private' END,
              initcap(($3::text[])[1 + (g * 5) % array_length($3::text[], 1)]) || ' ' || g,
              ARRAY[($3::text[])[1 + (g * 7) % array_length($3::text[], 1)]],
              'assets/' || p.project_id || '/' || g || '.png', '{"width":512,"height":512,"size":1000,"format":"png"}',
              jsonb_build_object('prompt', 'a ' || ($4::text[])[1 + g % array_length($4::text[], 1)] || ' ' ||
                ($3::text[])[1 + g % array_length($3::text[], 1)] || ' near a ' || ($3::text[])[1 + (g / 16) % array_length($3::text[], 1)]),
              CASE WHEN p.ord = 0 THEN (SELECT array_agg(x / norm) FROM (SELECT x, sqrt(sum(x * x) OVER ()) AS norm
                                        FROM (SELECT random()::real - 0.5 + g * 0 AS x FROM generate_series(1, 1024)) r) n)
                   ELSE '{}'::real[] END,
              now() - (g % 365) * interval '1 day', now() - (g % 365) * interval '1 day'
         FROM generate_series($1::int, $2::int) g
         JOIN (SELECT ord - 1 AS ord, team_id, project_id FROM unnest($5::text[], $6::text[]) WITH ORDINALITY AS u(team_id, project_id, ord)) p
           ON p.ord = CASE WHEN g % 100 < ${Math.round(BENCH_SHARE * 100)} THEN 0 ELSE 1 + g % ${projects.length - 1} END`,
      [from, to, WORDS, STYLES, projects.map((p) => p.teamId), projects.map((p) => p.projectId)],
    );
  }
  await db.query('VACUUM ANALYZE assets.assets');
}

/**
 * The PGlite part (embedded mode's database, pgvector loaded): the same 100,000 rows in a PGlite data
 * directory, the HNSW index built after the load (as for any bulk load: dropped, then
 * `assets.ensure_embedding_index()`), and each query run through the service's own repository
 * (`SearchAssetsRepository`: mode, index path, fallback) beside its bare SQL. No HTTP here: a PGlite
 * database belongs to one process, and the HTTP layer's share is the PostgreSQL part's ratio.
 */
async function pgliteCases(projects: { teamId: string; projectId: string }[], log: (line: string) => void): Promise<boolean> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-search-pglite-'));
  const db = await PgliteConnection.open(dir);
  try {
    await migrate(db, ASSET_SCHEMA);
    await db.query('DROP INDEX assets.assets_embedding_hnsw_idx');
    log(`PGlite: seeding ${TOTAL.toLocaleString('en')} assets`);
    let t = Date.now();
    await seed(db, projects);
    log(`  seeded and analyzed in ${Math.round((Date.now() - t) / 1000)} s`);
    t = Date.now();
    const [built] = await db.query<{ mode: string }>('SELECT assets.ensure_embedding_index() AS mode');
    log(`  ${built.mode}: index built over ${Math.round(TOTAL * BENCH_SHARE).toLocaleString('en')} embeddings in ${Math.round((Date.now() - t) / 1000)} s`);
    const index = new VectorIndex(db);
    const mode = await index.refresh();
    if (mode.kind !== 'hnsw') throw new Error(`PGlite: expected the index, got ${describeMode(mode)}`);
    const repository = new SearchAssetsRepository(db, index);
    const [reference] = await db.query<{ embedding: number[] }>(
      `SELECT embedding FROM assets.assets WHERE project_id = $1 AND cardinality(embedding) = 1024 LIMIT 1`,
      [projects[0].projectId],
    );
    const vector = reference.embedding.map(Number);
    const base = { scope: { kind: 'project' as const, projectId: projects[0].projectId }, ratio: 0.5, sort: [], offset: 0, limit: 20, conditions: [] };
    const filter = parseFilter('type = inference-txt2img AND tags = castle', ASSET_FILTER_SPEC);
    const cases: { name: string; criteria: SearchCriteria; indexed: boolean; runs: number; target: boolean }[] = [
      { name: 'filtered text', criteria: { ...base, text: 'lighthouse', conditions: filter }, indexed: false, runs: TEXT_RUNS, target: true },
      { name: 'vector (hnsw index)', criteria: { ...base, vector }, indexed: true, runs: TEXT_RUNS, target: true },
      { name: 'vector, filtered (hnsw)', criteria: { ...base, vector, conditions: filter }, indexed: true, runs: TEXT_RUNS, target: false },
      { name: 'hybrid (hnsw)', criteria: { ...base, text: 'lighthouse', vector }, indexed: true, runs: VECTOR_RUNS, target: false },
      { name: 'vector (exact scan)', criteria: { ...base, vector }, indexed: false, runs: Math.min(VECTOR_RUNS, 5), target: false },
    ];
    let pass = true;
    for (const c of cases) {
      const { page, count } = buildSearchQueries(c.criteria, c.indexed ? { vectorSchema: mode.schema } : undefined);
      const runner = c.indexed ? index.statements() : db;
      const bare: number[] = [];
      const served: number[] = [];
      let hits = 0;
      for (let i = -3; i < c.runs; i++) {
        let start = performance.now();
        await Promise.all([runner.query(page.text, page.values), db.query(count.text, count.values)]);
        if (i >= 0) bare.push(performance.now() - start);
        // The exact-scan case is the bare SQL only: the repository would take the index.
        if (!c.indexed && c.criteria.vector) continue;
        start = performance.now();
        hits = (await repository.search(c.criteria)).total;
        if (i >= 0) served.push(performance.now() - start);
      }
      const b = summary(bare);
      const s = served.length ? summary(served) : undefined;
      const measured = s ?? b;
      const ok = !c.target || measured.p99 <= TARGET_P99_MS;
      if (!ok) pass = false;
      log(
        `${c.name.padEnd(24)} ${String(hits || '').padStart(6)} matches  ` +
          (s ? `repository p50 ${s.p50.toFixed(1).padStart(7)} ms p99 ${s.p99.toFixed(1).padStart(7)} ms  ` : ''.padEnd(47)) +
          `bare SQL p50 ${b.p50.toFixed(1).padStart(7)} ms p99 ${b.p99.toFixed(1).padStart(7)} ms` +
          (c.target ? `  ${ok ? 'PASS' : 'FAIL'} (p99 ≤ ${TARGET_P99_MS} ms)` : ''),
      );
    }
    await index.onModuleDestroy();
    return pass;
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
function summary(ms: number[]): { p50: number; p99: number } {
  const sorted = [...ms].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

async function main(): Promise<void> {
  if (env.BENCH_POSTGRES === '0') {
    // The PGlite part alone (its rows need only project and team ids, not a service that knows them).
    const projects = Array.from({ length: 10 }, (_, i) => ({ teamId: `team_bench${i}`, projectId: `proj_bench${i}` }));
    process.exitCode = (await pgliteCases(projects, (line) => console.log(line))) ? 0 : 1;
    return;
  }
  const services = testServices();
  const database = await createTestDatabase('bench_search');
  const db = new PostgresConnection(database.url, { poolSize: 4 });
  let child: ChildProcess | undefined;
  const log = (line: string) => console.log(line);
  try {
    for (const schema of [IDENTITY_SCHEMA, ASSET_SCHEMA]) await migrate(db, schema);
    const vector = await db.query<{ available: boolean }>(`SELECT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') AS available`);
    const adminToken = `adm_${randomBytes(18).toString('base64url')}`;
    const service = await startService({
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: database.url,
      DATABASE_POOL_SIZE: '10',
      KAFKA_BROKERS: services.kafkaBrokers.join(','),
      KAFKA_GROUP_PREFIX: `bench-${randomBytes(3).toString('hex')}.`,
      KAFKA_FROM_BEGINNING: 'false',
      ...s3Env(services.s3),
      ADMIN_TOKEN: adminToken,
    });
    child = service.child;
    await waitFor(async () => (await fetch(`${service.url}/readyz`)).ok, { timeoutMs: 60_000, what: 'asset-service /readyz' });
    const projects: { teamId: string; projectId: string }[] = [];
    for (let i = 0; i < 10; i++) {
      const { team } = await admin(service.url, adminToken, 'teams', { name: `bench-team-${i}` });
      const { project } = await admin(service.url, adminToken, `teams/${team.id}/projects`, { name: `bench-${i}` });
      projects.push({ teamId: team.id, projectId: project.id });
    }
    const key = await admin(service.url, adminToken, 'api-keys', { teamId: projects[0].teamId, projectId: projects[0].projectId, role: 'member' });
    const auth = `Basic ${Buffer.from(`${key.apiKey}:${key.apiSecret}`).toString('base64')}`;

    log(`bench/search: seeding ${TOTAL.toLocaleString('en')} assets (${BENCH_SHARE * 100} % with embeddings in the searched project, 10 projects)`);
    const seeded = Date.now();
    await seed(db, projects);
    log(`  seeded and analyzed in ${Math.round((Date.now() - seeded) / 1000)} s; pgvector ${vector[0].available ? 'available' : 'absent'} on this PostgreSQL`);

    const [reference] = await db.query<{ id: string; embedding: number[] }>(
      `SELECT id, embedding FROM assets.assets WHERE project_id = $1 AND cardinality(embedding) = 1024 LIMIT 1`,
      [projects[0].projectId],
    );
    const base = { scope: { kind: 'project' as const, projectId: projects[0].projectId }, ratio: 0.5, sort: [], offset: 0, limit: 20 };
    const cases: { name: string; body: Record<string, unknown>; criteria: SearchCriteria; runs: number; target: boolean }[] = [
      {
        name: 'filtered text',
        body: { query: 'lighthouse', filter: 'type = inference-txt2img AND tags = castle' },
        criteria: { ...base, text: 'lighthouse', conditions: parseFilter('type = inference-txt2img AND tags = castle', ASSET_FILTER_SPEC) },
        runs: TEXT_RUNS,
        target: true,
      },
      { name: 'text', body: { query: 'watercolor dragon' }, criteria: { ...base, text: 'watercolor dragon', conditions: [] }, runs: TEXT_RUNS, target: false },
      {
        name: vector[0].available ? 'vector' : 'vector (exact scan)',
        body: { image: reference.id },
        criteria: { ...base, vector: reference.embedding.map(Number), conditions: [] },
        runs: VECTOR_RUNS,
        target: true,
      },
      {
        name: 'hybrid text + vector',
        body: { query: 'lighthouse', image: reference.id },
        criteria: { ...base, text: 'lighthouse', vector: reference.embedding.map(Number), conditions: [] },
        runs: VECTOR_RUNS,
        target: false,
      },
    ];

    let pass = true;
    for (const c of cases) {
      const { page, count } = buildSearchQueries(c.criteria);
      const bare: number[] = [];
      const api: number[] = [];
      let hits = 0;
      // Alternate bare and service calls so a burst of other load on the machine hits both alike (3 warm-ups each).
      for (let i = -3; i < c.runs; i++) {
        let t = performance.now();
        await Promise.all([db.query(page.text, page.values), db.query(count.text, count.values)]);
        if (i >= 0) bare.push(performance.now() - t);
        t = performance.now();
        const res = await fetch(`${service.url}/v1/search/assets`, {
          method: 'POST',
          headers: { authorization: auth, 'content-type': 'application/json' },
          body: JSON.stringify(c.body),
        });
        const body = (await res.json()) as { hits?: unknown[]; estimatedTotalHits?: number };
        if (res.status !== 200) throw new Error(`${c.name}: ${res.status} ${JSON.stringify(body)}`);
        if (i >= 0) api.push(performance.now() - t);
        hits = body.estimatedTotalHits ?? 0;
      }
      const b = summary(bare);
      const s = summary(api);
      const ok = !c.target || s.p99 <= TARGET_P99_MS;
      if (!ok) pass = false;
      log(
        `${c.name.padEnd(22)} ${String(hits).padStart(6)} matches  service p50 ${s.p50.toFixed(1).padStart(7)} ms p99 ${s.p99.toFixed(1).padStart(7)} ms` +
          `  bare SQL p50 ${b.p50.toFixed(1).padStart(7)} ms p99 ${b.p99.toFixed(1).padStart(7)} ms  ratio p50 ${(s.p50 / b.p50).toFixed(2)}` +
          (c.target ? `  ${ok ? 'PASS' : 'FAIL'} (p99 ≤ ${TARGET_P99_MS} ms)` : ''),
      );
    }
    if (env.BENCH_PGLITE !== '0') {
      if (!(await pgliteCases(projects, log))) pass = false;
    }
    process.exitCode = pass ? 0 : 1;
  } finally {
    if (child && child.exitCode === null) {
      const exited = new Promise((done) => child!.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
    await db.close();
    if (env.BENCH_KEEP_DB) log(`database kept: ${database.url}`);
    else await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
