import { migrate, type DatabaseConnection } from '@genasset/persistence';
import { DATABASE_KINDS, openTestConnection, type TestConnection } from '@genasset/testing';
import { ASSET_SCHEMA } from '../src/asset.schema';
import { buildSearchQueries, SearchAssetsRepository, type SearchCriteria } from '../src/search/search-assets.repository';
import { describeMode, describeModelMode, modelIndexName, VECTOR_INDEX_NAME, VectorIndex } from '../src/search/vector-index';

const DIMENSIONS = 1024;
const PROJECT = 'proj_vectors';
const OTHER = 'proj_other';
const ROWS = 240;

/** A deterministic pseudo-random stream (mulberry32), so every run seeds the same vectors. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A unit vector at angle θ from the first axis: cos θ along it, sin θ spread over
 * the other axes at random. Its cosine with the first axis is exactly cos θ, so
 * rows at distinct angles have distinct, well-separated similarities.
 */
function atAngle(theta: number, next: () => number, dims = DIMENSIONS): number[] {
  const rest = Array.from({ length: dims - 1 }, () => next() - 0.5);
  const norm = Math.hypot(...rest);
  return [Math.cos(theta), ...rest.map((x) => (Math.sin(theta) * x) / norm)];
}

const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0);

/** Analyses the seeded table, then opens search as the service does: the vector index read first. */
async function openSearch(db: DatabaseConnection): Promise<{ index: VectorIndex; repository: SearchAssetsRepository }> {
  await db.query('ANALYZE assets.assets');
  const index = new VectorIndex(db);
  await index.refresh();
  return { index, repository: new SearchAssetsRepository(db, index) };
}

/** The text scores of "lighthouse" as the database ranks them (name weight A, ts_rank_cd normalised). */
async function lighthouseScores(db: DatabaseConnection): Promise<Map<string, number>> {
  const ranked = await db.query<{ id: string; s: number }>(
    `SELECT id, ts_rank_cd(search_text, websearch_to_tsquery('english', 'lighthouse'), 32)::float8 AS s
       FROM assets.assets WHERE search_text @@ websearch_to_tsquery('english', 'lighthouse')`,
  );
  return new Map(ranked.map((r) => [r.id, Number(r.s)]));
}

interface Seeded {
  id: string;
  project: string;
  createdAt: Date;
  tags: string[];
  name: string;
  embedding: number[];
}

/**
 * Image similarity on both drivers: on PGlite (pgvector loaded) migration 0004
 * builds the HNSW index and search takes the index path; on this PostgreSQL
 * (no pgvector) it keeps the exact scan. Both must answer the same hits in the
 * same order with the same scores: they are checked against one reference
 * computed here (cosine clamped at 0, then newest first, then id).
 */
describe.each(DATABASE_KINDS)('asset image similarity on %s', (_label, kind) => {
  let opened: TestConnection | undefined;
  let db: DatabaseConnection;
  let index: VectorIndex;
  let repository: SearchAssetsRepository;
  const rows: Seeded[] = [];
  const query = [1, ...new Array<number>(DIMENSIONS - 1).fill(0)];

  beforeAll(async () => {
    opened = await openTestConnection(kind, 'search_vectors');
    db = opened.db;
    await migrate(db, ASSET_SCHEMA);
    const next = random(7);
    for (let i = 0; i < ROWS; i++) {
      // Angles 0…π (similarities 1…-1) in a shuffled order of creation; every 8th row has no embedding.
      const theta = (((i * 97) % ROWS) / ROWS) * Math.PI;
      rows.push({
        id: `asset_${String(i).padStart(26, '0')}`,
        project: i % 5 === 4 ? OTHER : PROJECT,
        createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, i)),
        tags: i % 3 === 0 ? ['sea'] : [],
        name: i % 4 === 0 ? `lighthouse ${i}` : `item ${i}`,
        embedding: i % 8 === 7 ? [] : atAngle(theta, next),
      });
    }
    await db.query(
      `INSERT INTO assets.assets (id, team_id, project_id, author_id, type, kind, mime_type, privacy, name, tags, storage_key,
                                  properties, metadata, embedding, created_at, updated_at)
       SELECT r.id, 'team_vectors', r.project, 'key_seed', 'uploaded', 'image', 'image/png', 'private', r.name,
              CASE WHEN r.tagged THEN ARRAY['sea'] ELSE '{}'::text[] END, 'assets/' || r.id || '.png',
              '{"width":1,"height":1,"size":1,"format":"png"}', '{}',
              CASE WHEN r.embedding = '' THEN '{}'::real[] ELSE string_to_array(r.embedding, ',')::real[] END, r.created_at, r.created_at
         FROM unnest($1::text[], $2::text[], $3::text[], $4::boolean[], $5::text[], $6::timestamptz[])
           AS r(id, project, name, tagged, embedding, created_at)`,
      [
        rows.map((r) => r.id),
        rows.map((r) => r.project),
        rows.map((r) => r.name),
        rows.map((r) => r.tags.length > 0),
        rows.map((r) => r.embedding.join(',')),
        rows.map((r) => r.createdAt.toISOString()),
      ],
    );
    // Read back as stored (real: 4-byte floats), so the reference scores what the database scores.
    const stored = await db.query<{ id: string; embedding: number[] }>(`SELECT id, embedding FROM assets.assets`);
    const byId = new Map(stored.map((r) => [r.id, r.embedding.map(Number)]));
    for (const r of rows) r.embedding = byId.get(r.id)!;
    ({ index, repository } = await openSearch(db));
  });

  afterAll(async () => {
    await index?.onModuleDestroy();
    await opened?.close();
  });

  const criteria = (over: Partial<SearchCriteria>): SearchCriteria => ({
    scope: { kind: 'project', projectId: PROJECT },
    ratio: 0.5,
    conditions: [],
    sort: [],
    offset: 0,
    limit: 10,
    vector: query,
    ...over,
  });

  /** What both paths must answer: the project's embedded rows passing `keep`, by clamped cosine, then newest, then id. */
  function reference(keep: (r: Seeded) => boolean, score: (r: Seeded) => number, offset: number, limit: number) {
    return rows
      .filter((r) => r.project === PROJECT && keep(r))
      .map((r) => ({ id: r.id, score: score(r), createdAt: r.createdAt.getTime() }))
      .sort((a, b) => b.score - a.score || b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1))
      .slice(offset, offset + limit);
  }
  const similarity = (r: Seeded) => Math.max(0, dot(r.embedding, query));
  const embedded = (r: Seeded) => r.embedding.length === DIMENSIONS;

  function expectSame(answer: { rows: { id: string; score: number }[] }, expected: { id: string; score: number }[]) {
    expect(answer.rows.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    answer.rows.forEach((r, i) => expect(r.score).toBeCloseTo(expected[i].score, 5));
  }

  it('says which mode it is in, as /readyz shows it', () => {
    if (kind === 'pglite') {
      expect(index.mode).toMatchObject({ kind: 'hnsw', schema: 'assets' });
      expect(describeMode(index.mode)).toMatch(/^pgvector hnsw \(pgvector 0\.\d+\.\d+\)$/);
    } else {
      expect(describeMode(index.mode)).toBe('exact scan (pgvector not installed)');
    }
  });

  it('pages 1 and 2 of an image search: same hits, order and scores as the exact reference', async () => {
    expectSame(await repository.search(criteria({})), reference(embedded, similarity, 0, 10));
    const second = await repository.search(criteria({ offset: 10 }));
    expectSame(second, reference(embedded, similarity, 10, 10));
    expect(second.total).toBe(rows.filter((r) => r.project === PROJECT && embedded(r)).length);
  });

  it('with a filter, still a full page of the nearest matching rows (not the nearest rows filtered afterwards)', async () => {
    const filtered = await repository.search(criteria({ conditions: [{ attribute: 'tags', op: '=', value: 'sea' }], limit: 20 }));
    expectSame(filtered, reference((r) => embedded(r) && r.tags.includes('sea'), similarity, 0, 20));
  });

  it("never another project's images, though some of them are nearer than the page's last hit", async () => {
    const answer = await repository.search(criteria({ conditions: [{ attribute: 'tags', op: '=', value: 'sea' }], limit: 20 }));
    const last = answer.rows.at(-1)!.score;
    expect(rows.some((r) => r.project === OTHER && r.tags.includes('sea') && embedded(r) && similarity(r) > last)).toBe(true);
    const other = new Set(rows.filter((r) => r.project === OTHER).map((r) => r.id));
    expect(answer.rows.filter((r) => other.has(r.id))).toEqual([]);
  });

  it('counts the matches up to countLimit (offset mode), exactly without it', async () => {
    const all = rows.filter((r) => r.project === PROJECT && embedded(r)).length;
    expect((await repository.search(criteria({ countLimit: 25 }))).total).toBe(25);
    expect((await repository.search(criteria({ countLimit: all + 5 }))).total).toBe(all);
    expect((await repository.search(criteria({}))).total).toBe(all);
  });

  it('full text has one GIN index holding the project, the words, the type and the tags (btree_gin, migration 0005)', async () => {
    // At 240 rows the planner rightly prefers a btree; bench/search shows this index answering at 100,000 (EXPLAIN in its README).
    const [row] = await db.query<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes WHERE schemaname = 'assets' AND indexname = 'assets_search_project_idx'`);
    expect(row?.indexdef).toMatch(/USING gin \(project_id, search_text, type, tags\)$/);
  });

  it('a page reaching the images pointing away (score 0) orders them newest first, as the exact scan does', async () => {
    const total = rows.filter((r) => r.project === PROJECT && embedded(r)).length;
    const tail = await repository.search(criteria({ offset: total - 30, limit: 30 }));
    expectSame(tail, reference(embedded, similarity, total - 30, 30));
    expect(tail.rows.at(-1)!.score).toBe(0);
  });

  it('hybrid: text matches and the nearest images, weighted by the ratio', async () => {
    const text = await lighthouseScores(db);
    expect(text.size).toBe(ROWS / 4);
    const hybrid = (r: Seeded) => 0.3 * (text.get(r.id) ?? 0) + 0.7 * similarity(r);
    const answer = await repository.search(criteria({ text: 'lighthouse', ratio: 0.7, limit: 15 }));
    expectSame(answer, reference((r) => embedded(r) || text.has(r.id), hybrid, 0, 15));
  });

  it('the index path is a plan the HNSW index answers (PGlite)', async () => {
    if (index.mode.kind !== 'hnsw') return expect(kind).toBe('postgres');
    const { page } = buildSearchQueries(criteria({}), { vectorSchema: index.mode.schema });
    // With sorting disabled the planner must find the order in an index: proof the expressions match.
    const pinned = db.withSettings({ enable_sort: 'off', enable_seqscan: 'off' });
    try {
      const plan = await pinned.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${page.text}`, page.values);
      expect(plan.map((p) => p['QUERY PLAN']).join('\n')).toContain(VECTOR_INDEX_NAME);
    } finally {
      await pinned.close();
    }
  });
});

/**
 * Text to image (the search model's vectors, docs/search.md): on PGlite the embedder's call builds
 * migration 0007's HNSW index for the model and its dimension, and a query embedded by the model
 * takes its candidates from it (the nearest rows under scope and filter, plus the text matches);
 * on this PostgreSQL (no pgvector) the exact scan answers. Both are checked against one reference:
 * (1 - q)·text + q·max(0, cosine), then newest first, then id.
 */
describe.each(DATABASE_KINDS)('asset text-to-image similarity on %s', (_label, kind) => {
  const MODEL = "clip'test";
  const DIMS = 16;
  let opened: TestConnection | undefined;
  let db: DatabaseConnection;
  let index: VectorIndex;
  let repository: SearchAssetsRepository;
  const rows: (Omit<Seeded, 'embedding'> & { model?: string; vector: number[] })[] = [];
  const queryVector = [1, ...new Array<number>(DIMS - 1).fill(0)];
  let text: Map<string, number>;

  beforeAll(async () => {
    opened = await openTestConnection(kind, 'search_model_vectors');
    db = opened.db;
    await migrate(db, ASSET_SCHEMA);
    const next = random(11);
    for (let i = 0; i < ROWS; i++) {
      const theta = (((i * 89) % ROWS) / ROWS) * Math.PI;
      // Every 6th row has no vector of the model; every 10th has another model's (stale: never matches by similarity).
      const model = i % 6 === 5 ? undefined : i % 10 === 3 ? 'old-clip' : MODEL;
      rows.push({
        id: `asset_${String(i).padStart(26, '0')}`,
        project: i % 5 === 4 ? OTHER : PROJECT,
        createdAt: new Date(Date.UTC(2025, 0, 1, 0, 0, i)),
        tags: i % 3 === 0 ? ['sea'] : [],
        name: i % 4 === 0 ? `lighthouse ${i}` : `item ${i}`,
        model,
        vector: model ? atAngle(theta, next, DIMS) : [],
      });
    }
    await db.query(
      `INSERT INTO assets.assets (id, team_id, project_id, author_id, type, kind, mime_type, privacy, name, tags, storage_key,
                                  properties, metadata, model_embedding, model_embedding_model, created_at, updated_at)
       SELECT r.id, 'team_vectors', r.project, 'key_seed', 'uploaded', 'image', 'image/png', 'private', r.name,
              CASE WHEN r.tagged THEN ARRAY['sea'] ELSE '{}'::text[] END, 'assets/' || r.id || '.png',
              '{"width":1,"height":1,"size":1,"format":"png"}', '{}',
              CASE WHEN r.vector = '' THEN NULL ELSE string_to_array(r.vector, ',')::real[] END, r.model, r.created_at, r.created_at
         FROM unnest($1::text[], $2::text[], $3::text[], $4::boolean[], $5::text[], $6::text[], $7::timestamptz[])
           AS r(id, project, name, tagged, vector, model, created_at)`,
      [
        rows.map((r) => r.id),
        rows.map((r) => r.project),
        rows.map((r) => r.name),
        rows.map((r) => r.tags.length > 0),
        rows.map((r) => r.vector.join(',')),
        rows.map((r) => r.model ?? null),
        rows.map((r) => r.createdAt.toISOString()),
      ],
    );
    const stored = await db.query<{ id: string; v: number[] | null }>(`SELECT id, model_embedding AS v FROM assets.assets`);
    const byId = new Map(stored.map((r) => [r.id, (r.v ?? []).map(Number)]));
    for (const r of rows) r.vector = byId.get(r.id)!;
    text = await lighthouseScores(db);
    ({ index, repository } = await openSearch(db));
  });

  afterAll(async () => {
    await index?.onModuleDestroy();
    await opened?.close();
  });

  const criteria = (over: Partial<SearchCriteria> & { q?: number }): SearchCriteria => ({
    scope: { kind: 'project', projectId: PROJECT },
    ratio: 0.5,
    conditions: [],
    sort: [],
    offset: 0,
    limit: 10,
    text: 'lighthouse',
    semantic: { vector: queryVector, model: MODEL, ratio: over.q ?? 0.5 },
    ...over,
  });
  const hasVector = (r: (typeof rows)[number]) => r.model === MODEL && r.vector.length === DIMS;
  const similarity = (r: (typeof rows)[number]) => (hasVector(r) ? Math.max(0, dot(r.vector, queryVector)) : 0);
  function reference(q: number, keep: (r: (typeof rows)[number]) => boolean, offset: number, limit: number) {
    return rows
      .filter((r) => r.project === PROJECT && keep(r) && (text.has(r.id) || hasVector(r)))
      .map((r) => ({ id: r.id, score: (1 - q) * (text.get(r.id) ?? 0) + q * similarity(r), createdAt: r.createdAt.getTime() }))
      .sort((a, b) => b.score - a.score || b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1))
      .slice(offset, offset + limit);
  }
  function expectSame(answer: { rows: { id: string; score: number }[] }, expected: { id: string; score: number }[]) {
    expect(answer.rows.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    answer.rows.forEach((r, i) => expect(r.score).toBeCloseTo(expected[i].score, 5));
  }

  it('builds the model\'s index once, though two replicas ask at the same time (PGlite); none without pgvector', async () => {
    const replicas = [new VectorIndex(db), new VectorIndex(db)];
    try {
      const modes = await Promise.all(replicas.map((r) => r.ensureModelIndex(MODEL, DIMS)));
      const indexes = await db.query<{ indexname: string }>(`SELECT indexname FROM pg_indexes WHERE schemaname = 'assets' AND indexname LIKE '%hnsw' AND indexname <> $1`, [VECTOR_INDEX_NAME]);
      if (kind === 'pglite') {
        for (const mode of modes) expect(describeModelMode(mode)).toBe(`pgvector hnsw (${DIMS} dimensions)`);
        expect(indexes.map((i) => i.indexname)).toEqual([modelIndexName(MODEL, DIMS)]);
      } else {
        for (const mode of modes) expect(describeModelMode(mode)).toBe('exact scan (pgvector not installed)');
        expect(indexes).toEqual([]);
      }
      // Asked again: the same answer, nothing built twice.
      expect(await replicas[0].ensureModelIndex(MODEL, DIMS)).toEqual(modes[0]);
    } finally {
      await Promise.all(replicas.map((r) => r.onModuleDestroy()));
    }
    await index.refresh();
    expect(index.modelMode(MODEL, DIMS).kind).toBe(kind === 'pglite' ? 'hnsw' : 'exact');
  });

  it('pages 1 and 2 of a query: same hits, order and scores as the exact reference (q = 0.5, and q = 1)', async () => {
    expectSame(await repository.search(criteria({})), reference(0.5, () => true, 0, 10));
    expectSame(await repository.search(criteria({ offset: 10 })), reference(0.5, () => true, 10, 10));
    expectSame(await repository.search(criteria({ q: 1, limit: 20 })), reference(1, () => true, 0, 20));
    const second = await repository.search(criteria({ q: 0.25, offset: 20, limit: 20 }));
    expectSame(second, reference(0.25, () => true, 20, 20));
    expect(second.total).toBe(rows.filter((r) => r.project === PROJECT && (text.has(r.id) || hasVector(r))).length);
    // On PGlite these pages are the index path's own (no fallback to the exact scan was needed for them).
    const mode = index.modelMode(MODEL, DIMS);
    if (mode.kind === 'hnsw') {
      for (const c of [criteria({}), criteria({ offset: 10 }), criteria({ q: 1, limit: 20 })]) {
        const { page } = buildSearchQueries(c, { vectorSchema: mode.schema }, { pgvectorSchema: mode.schema });
        const own = await index.statements().query<{ id: string; score: number }>(page.text, page.values);
        expectSame({ rows: own.map((r) => ({ id: r.id, score: Number(r.score) })) }, reference(c.semantic!.ratio, () => true, c.offset, c.limit));
      }
    } else expect(kind).toBe('postgres');
  });

  it("with a filter, a full page of the nearest matching rows; never another project's, nor another model's vectors", async () => {
    const filtered = await repository.search(criteria({ conditions: [{ attribute: 'tags', op: '=', value: 'sea' }], limit: 20, q: 0.8 }));
    expectSame(filtered, reference(0.8, (r) => r.tags.includes('sea'), 0, 20));
    const foreign = new Set(rows.filter((r) => r.project === OTHER || r.model === 'old-clip').map((r) => r.id));
    const last = filtered.rows.at(-1)!.score;
    expect(rows.some((r) => r.project === OTHER && r.tags.includes('sea') && 0.8 * similarity(r) > last)).toBe(true);
    expect(filtered.rows.filter((r) => foreign.has(r.id) && !text.has(r.id))).toEqual([]);
  });

  it('a page reaching rows scoring 0 orders them newest first, as the exact scan does', async () => {
    const all = rows.filter((r) => r.project === PROJECT && (text.has(r.id) || hasVector(r))).length;
    const tail = await repository.search(criteria({ q: 1, offset: all - 30, limit: 30 }));
    expectSame(tail, reference(1, () => true, all - 30, 30));
    expect(tail.rows.at(-1)!.score).toBe(0);
  });

  it("the index path is a plan the model's HNSW index answers (PGlite)", async () => {
    const mode = index.modelMode(MODEL, DIMS);
    if (mode.kind !== 'hnsw') return expect(kind).toBe('postgres');
    const { page } = buildSearchQueries(criteria({}), { vectorSchema: mode.schema }, { pgvectorSchema: mode.schema });
    const pinned = db.withSettings({ enable_sort: 'off', enable_seqscan: 'off' });
    try {
      const plan = await pinned.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${page.text}`, page.values);
      expect(plan.map((p) => p['QUERY PLAN']).join('\n')).toContain(modelIndexName(MODEL, DIMS));
    } finally {
      await pinned.close();
    }
  });
});
