/**
 * What pgvector's HNSW walk costs on PGlite, alone: a bare table of `BENCH_WALK_ROWS` (25,000) random
 * unit 1,024-number `real[]` rows, the expression index migration 0004 builds (`vector_cosine_ops`, or
 * `halfvec_cosine_ops` with `BENCH_WALK_KIND=halfvec`), then 30 queries of the first page (20) at
 * `hnsw.ef_search` 100 (the service's), 64 and 40: CPU time per query, recall@20 against the exact
 * scan (10 queries), and the buffers of one `EXPLAIN ANALYZE`. bench/search/README.md has its figures.
 *
 *   node -r @swc-node/register bench/search/index-walk.ts [dataDir]   # a kept dataDir skips the build
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';

const ROWS = Number(process.env.BENCH_WALK_ROWS ?? 25_000);
const KIND = process.env.BENCH_WALK_KIND === 'halfvec' ? 'halfvec' : 'vector';
const DIMS = 1024;
const QUERIES = 30;
const RECALL_QUERIES = 10;

const unitVector = (): number[] => {
  const v = Array.from({ length: DIMS }, () => Math.random() * 2 - 1);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
};
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function main(): Promise<void> {
  const kept = process.argv[2];
  const dir = kept ?? mkdtempSync(join(tmpdir(), 'bench-index-walk-'));
  const build = !existsSync(join(dir, 'PG_VERSION'));
  const db = new PGlite({ dataDir: dir, extensions: { vector } });
  try {
    if (build) {
      await db.exec('CREATE EXTENSION vector; CREATE TABLE t (id serial PRIMARY KEY, embedding real[])');
      for (let i = 0; i < ROWS; i += 500) {
        const rows = Array.from({ length: Math.min(500, ROWS - i) }, unitVector);
        await db.query('INSERT INTO t (embedding) SELECT r::real[] FROM unnest($1::text[]) r', [rows.map((r) => `{${r.join(',')}}`)]);
      }
      await db.exec("SET maintenance_work_mem = '256MB'");
      const started = Date.now();
      await db.exec(`CREATE INDEX ON t USING hnsw ((embedding::${KIND}(${DIMS})) ${KIND}_cosine_ops)`);
      console.log(`${KIND} index over ${ROWS.toLocaleString('en')} rows built in ${Math.round((Date.now() - started) / 1000)} s`);
      await db.exec('VACUUM ANALYZE t');
    }
    const queries = Array.from({ length: QUERIES }, unitVector);
    const distance = `embedding::${KIND}(${DIMS}) <=> $1::real[]::${KIND}(${DIMS})`;
    const page = `SELECT id FROM t ORDER BY ${distance} LIMIT 20`;
    // The exact answer: the same order without the index.
    await db.exec('SET enable_indexscan = off; SET enable_bitmapscan = off');
    const truth: number[][] = [];
    for (const q of queries.slice(0, RECALL_QUERIES)) truth.push((await db.query<{ id: number }>(page, [q])).rows.map((r) => r.id));
    await db.exec('RESET enable_indexscan; RESET enable_bitmapscan; SET hnsw.iterative_scan = strict_order');
    for (const ef of [100, 64, 40]) {
      await db.exec(`SET hnsw.ef_search = ${ef}`);
      const times: number[] = [];
      let recall = 0;
      for (const [i, q] of queries.entries()) {
        const before = cpuMs();
        const ids = (await db.query<{ id: number }>(page, [q])).rows.map((r) => r.id);
        times.push(cpuMs() - before);
        if (i < RECALL_QUERIES) recall += ids.filter((id) => truth[i].includes(id)).length / 20 / RECALL_QUERIES;
      }
      times.sort((a, b) => a - b);
      const plan = (await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${page}`, [queries[0]])).rows
        .map((r) => r['QUERY PLAN'].trim())
        .filter((line) => /^(Buffers: shared hit=\d+ read|Execution Time)/.test(line))
        .filter((line, i, lines) => lines.indexOf(line) === i);
      console.log(
        `${KIND} ef_search ${ef}: CPU p50 ${times[Math.floor(QUERIES / 2)].toFixed(1)} ms, p90 ${times[Math.floor(QUERIES * 0.9)].toFixed(1)} ms; ` +
          `recall@20 ${recall.toFixed(3)}; ${plan.join('; ')}`,
      );
    }
  } finally {
    await db.close();
    if (!kept) rmSync(dir, { recursive: true, force: true });
  }
}

void main();
