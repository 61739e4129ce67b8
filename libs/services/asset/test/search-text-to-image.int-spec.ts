import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeOpenai, embeddedServiceEnv, freePort, waitFor, writeBackendsFile, seedEmbeddedDataDir } from '@genasset/testing';
import { dataUrl, png, startAssetHarness, type Json, type ServiceHarness, type Tenant } from './support/asset-fixtures';
import { seedAssets } from './support/seed';

/**
 * Text-to-image search through the search model of INFERENCE_BACKENDS_FILE (docs/search.md, "Text
 * to image"), on the real PostgreSQL and S3, the model a fake of Infinity serving a CLIP-like model
 * over real HTTP (FakeOpenai `searchModels`: an image points along its colour, a text along the
 * colour words it holds). `plain` runs asset-service without the model (today's behaviour, and the
 * assets that exist before a model is configured); `clip` is a second asset-service on the same
 * database with the model configured: it embeds what exists, then what is created.
 */
describe('text-to-image search (search model configured)', () => {
  let fake: FakeOpenai;
  let plain: ServiceHarness;
  let clip: ServiceHarness;
  let t: Tenant;
  let other: Tenant;
  const ids: Record<string, string> = {};
  let clipClosed = false;
  const CLIP_ENV = (model: string, request = '3s') => ({
    INFERENCE_BACKENDS_FILE: writeBackendsFile({
      clip: {
        type: 'openai',
        url: fake.url,
        credentials: { scheme: 'bearer', tokenEnv: 'CLIP_KEY' },
        models: { searchEmbedding: model },
        timeouts: { request },
      },
    }),
    CLIP_KEY: 'sk-clip',
  });

  const uploadPicture = async (harness: ServiceHarness, tenant: Tenant, colour: string, name: string): Promise<string> => {
    const res = await harness.request('POST', '/v1/assets', { auth: tenant.auth.projectMember, body: { image: dataUrl(await png(48, 32, colour)), name } });
    if (res.status !== 200) throw new Error(`upload failed: ${res.status} ${JSON.stringify(res.body)}`);
    return (res.body as Json).asset.id as string;
  };
  const search = (harness: ServiceHarness, body: unknown, tenant: Tenant = t) =>
    harness.request('POST', '/v1/search/assets', { auth: tenant.auth.projectMember, body });
  const hitIds = (res: { body: { hits: { id: string }[] } }) => res.body.hits.map((h) => h.id);
  const detail = async (harness: ServiceHarness): Promise<string | undefined> => (await harness.request('GET', '/readyz')).body?.details?.['search.textToImage'];
  const settled = (harness: ServiceHarness, model = 'fake-clip') =>
    waitFor(async () => (await detail(harness))?.startsWith(`model ${model} (backend clip): 0 pending`), { timeoutMs: 30_000, intervalMs: 200, what: 'no asset left to embed' });
  const embeddedWith = async (assetIds: string[]) =>
    Object.fromEntries(
      (
        await plain.db.query<{ id: string; model: string | null; dims: number | null; error: string | null }>(
          `SELECT id, model_embedding_model AS model, cardinality(model_embedding) AS dims, model_embedding_error AS error FROM assets.assets WHERE id = ANY ($1::text[])`,
          [assetIds],
        )
      ).map((r) => [r.id, r]),
    );

  beforeAll(async () => {
    // fake-clip cannot read black pictures (as a model refusing an image); fake-clip-2 can.
    fake = await FakeOpenai.start({ apiKey: 'sk-clip', searchModels: ['fake-clip', 'fake-clip-2'], refusedColours: { 'fake-clip': ['black'] } });
    plain = await startAssetHarness();
    [t, other] = [await plain.tenant(), await plain.tenant()];
    // Assets that exist before the model is configured; file names hold no colour word.
    ids.red = await uploadPicture(plain, t, '#dd2222', 'IMG_0001.png');
    ids.blue = await uploadPicture(plain, t, '#2233dd', 'IMG_0002.png');
    ids.green = await uploadPicture(plain, t, '#22aa33', 'square.png');
    ids.white = await uploadPicture(plain, t, '#f4f4f4', 'IMG_0004.png');
    ids.black = await uploadPicture(plain, t, '#0a0a0a', 'IMG_0003.png');
    ids.otherRed = await uploadPicture(plain, other, '#ee1111', 'IMG_9999.png');
    // An image row whose original is not in storage: the model never gets to see it.
    [ids.missing] = await seedAssets(plain, t, [{ name: 'IMG_0005.png' }]);
  }, 120_000);

  afterAll(async () => {
    if (!clipClosed) await clip?.close();
    await plain?.close();
    await fake?.close();
  });

  it('without a search model, a query is full text only: "a red square" finds nothing, /readyz has no search.textToImage', async () => {
    const res = await search(plain, { query: 'a red square' });
    expect(res.status).toBe(200);
    expect(res.body.hits).toEqual([]);
    expect(await detail(plain)).toBeUndefined();
  });

  describe('with the model configured', () => {
    beforeAll(async () => {
      // Same database: the plain service's assets are this one's existing assets.
      clip = await startAssetHarness({ ...CLIP_ENV('fake-clip'), DATABASE_URL: plain.database.url });
      await settled(clip);
    }, 120_000);

    it('embeds the existing assets in the background, several images per call, the bearer key sent', async () => {
      const rows = await embeddedWith([ids.red, ids.blue, ids.green, ids.white, ids.otherRed]);
      for (const id of [ids.red, ids.blue, ids.green, ids.white, ids.otherRed]) expect(rows[id]).toMatchObject({ model: 'fake-clip', dims: 9, error: null });
      // One call for the batch (refused: a black picture is in it, below), then one per picture.
      const imageCalls = fake.requests.filter((r) => r.path === '/v1/embeddings' && r.body.modality === 'image');
      expect(imageCalls.length).toBeGreaterThan(0);
      expect(Math.max(...imageCalls.map((c) => (c.body.input as string[]).length))).toBe(6);
      for (const call of imageCalls) {
        expect(call.authorization).toBe('Bearer sk-clip');
        expect(call.body).toMatchObject({ model: 'fake-clip', encoding_format: 'float' });
        for (const input of call.body.input as string[]) expect(input).toMatch(/^data:image\/jpeg;base64,/);
      }
    });

    it('marks an asset whose original is missing, or whose picture the model refuses, and does not try it again', async () => {
      const rows = await embeddedWith([ids.missing, ids.black]);
      expect(rows[ids.missing]).toMatchObject({ model: 'fake-clip', dims: null, error: 'its original is missing from storage' });
      // The refused picture refused its whole batch: the batch was sent again one picture at a time, the rest embedded.
      expect(rows[ids.black]).toMatchObject({ model: 'fake-clip', dims: null, error: expect.stringMatching(/answered HTTP 400: <class 'infinity_emb\.primitives\.ImageCorruption'>/) });
      const singles = fake.requests.filter((r) => r.body.modality === 'image' && r.body.model === 'fake-clip' && (r.body.input as string[]).length === 1);
      expect(singles.length).toBeGreaterThanOrEqual(2);
    });

    it('ranks the matching image first for a text query that full text alone does not match; never another tenant', async () => {
      const res = await search(clip, { query: 'a red square' });
      expect(res.status).toBe(200);
      expect(hitIds(res)[0]).toBe(ids.red);
      expect(hitIds(res)).not.toContain(ids.otherRed);
      expect(res.body.hits[0].score).toBeGreaterThan(0.4);
      expect(res.body.hits.slice(1).every((h: { score: number }) => h.score < res.body.hits[0].score)).toBe(true);
      expect(hitIds(await search(clip, { query: 'blue' }))[0]).toBe(ids.blue);
      // The other tenant sees its own red picture, never ours.
      const theirs = await search(clip, { query: 'red' }, other);
      expect(hitIds(theirs)).toEqual([ids.otherRed]);
    });

    it('embeds the query text once per text (modality text), kept for the next page', async () => {
      const before = fake.requests.filter((r) => r.body.modality === 'text').length;
      await search(clip, { query: 'a white picture', limit: 1 });
      await search(clip, { query: 'a white picture', limit: 1, offset: 1 });
      const texts = fake.requests.filter((r) => r.body.modality === 'text').slice(before);
      expect(texts.map((r) => r.body.input)).toEqual([['a white picture']]);
    });

    it('querySemanticRatio 0 gives the full-text answer of a service without the model', async () => {
      // Hits, order, scores and totals (URLs are signed per answer).
      const shape = (res: { body: Json }) => ({ ...res.body, hits: res.body.hits.map((h: Json) => ({ id: h.id, score: h.score })) });
      for (const query of ['a red square', 'square', 'IMG_0002']) {
        const today = await search(plain, { query });
        const zero = await search(clip, { query, querySemanticRatio: 0 });
        expect(zero.status).toBe(200);
        expect(shape(zero)).toEqual(shape(today));
      }
      expect(hitIds(await search(clip, { query: 'square', querySemanticRatio: 0 }))).toEqual([ids.green]);
    });

    it('scores (1 - q)·text + q·similarity: a row matches the words or has a vector of the model', async () => {
      // "square" names no colour (the fake's vector is orthogonal to every picture): the text match alone scores.
      const res = await search(clip, { query: 'square', querySemanticRatio: 0.25 });
      const today = await search(plain, { query: 'square' });
      expect(hitIds(res)[0]).toBe(ids.green);
      expect(res.body.hits[0].score).toBeCloseTo(0.75 * today.body.hits[0].score, 6);
      expect(hitIds(res)).toEqual(expect.arrayContaining([ids.red, ids.blue, ids.white]));
      expect(res.body.hits.slice(1).every((h: Json) => h.score === 0)).toBe(true);
      // "red square" matches no words: the red picture scores q · 1.
      const red = await search(clip, { query: 'red square', querySemanticRatio: 0.25 });
      expect(red.body.hits[0]).toMatchObject({ id: ids.red });
      expect(red.body.hits[0].score).toBeCloseTo(0.25, 5);
    });

    it('embeds a new asset soon after it is created (woken, not on the upload request)', async () => {
      ids.yellow = await uploadPicture(clip, t, '#eedd22', 'IMG_0006.png');
      await waitFor(async () => hitIds(await search(clip, { query: 'yellow' }))[0] === ids.yellow, { timeoutMs: 20_000, intervalMs: 100, what: 'the new asset ranked first' });
    });

    it('backend down: a search with a query answers 503 naming the model with Retry-After; ratio 0 still answers; embedding resumes', async () => {
      fake.fail('down');
      try {
        const res = await search(clip, { query: 'an orange picture' });
        expect(res.status).toBe(503);
        expect(res.body.error).toMatch(/the search model fake-clip cannot embed the query now.*querySemanticRatio: 0/);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
        expect((await search(clip, { query: 'square', querySemanticRatio: 0 })).status).toBe(200);
        // Image-only and filter-only searches do not need the model.
        expect((await search(clip, { filter: 'type = uploaded' })).status).toBe(200);

        ids.purple = await uploadPicture(clip, t, '#8822aa', 'IMG_0007.png');
        const shown = await waitFor(async () => {
          const d = await detail(clip);
          return d && /1 pending; search: exact scan \(pgvector not installed\); last error: the search model fake-clip \(backend clip\) could not be reached/.test(d) ? d : undefined;
        }, { timeoutMs: 20_000, intervalMs: 200, what: 'readiness showing the pending asset and the error' });
        expect(shown).not.toMatch(/sk-clip/);
        expect((await plain.request('GET', '/readyz')).status).toBe(200);
      } finally {
        fake.fail(undefined);
      }
      // 429 with retry-after: the 503 asks the caller to wait as long.
      fake.fail('rate-limited', { times: 1, retryAfterS: 9 });
      const limited = await search(clip, { query: 'a black picture' });
      expect(limited.status).toBe(503);
      expect(limited.headers.get('retry-after')).toBe('9');
      expect(limited.body.infos).toEqual({ model: 'fake-clip', retryAfter: 9 });
      await settled(clip);
      expect(hitIds(await search(clip, { query: 'purple' }))[0]).toBe(ids.purple);
    }, 60_000);

    it('a model change makes every vector stale: two replicas embed them again with the new model, each asset once', async () => {
      await clip.close();
      let second: ServiceHarness | undefined;
      try {
        [clip, second] = await Promise.all([
          startAssetHarness({ ...CLIP_ENV('fake-clip-2', '60s'), DATABASE_URL: plain.database.url }),
          startAssetHarness({ ...CLIP_ENV('fake-clip-2', '60s'), DATABASE_URL: plain.database.url }),
        ]);
        await settled(clip, 'fake-clip-2');
        // The black picture fake-clip refused is tried again: fake-clip-2 reads it.
        const all = [ids.red, ids.blue, ids.green, ids.white, ids.black, ids.otherRed, ids.yellow, ids.purple];
        const rows = await embeddedWith([...all, ids.missing]);
        expect(Object.values(rows).map((r) => r.model)).toEqual(new Array(9).fill('fake-clip-2'));
        expect(rows[ids.black]).toMatchObject({ dims: 9, error: null });
        const sent = fake.requests.filter((r) => r.body.modality === 'image' && r.body.model === 'fake-clip-2').flatMap((r) => r.body.input as string[]);
        expect(sent).toHaveLength(all.length);
        expect(hitIds(await search(second, { query: 'a red square' }))[0]).toBe(ids.red);
      } finally {
        await second?.close();
      }
    }, 120_000);

    it('a replica that dies mid-batch (its lease never released): another embeds the batch once the lease runs out', async () => {
      // The state such a replica leaves: the rows claimed (stale for the configured model, leased) and nobody to give
      // them back. One statement, so the live replica cannot take them first; a 1.5 s lease stands in for the real one.
      const batch = [ids.red, ids.blue, ids.green];
      await plain.db.query(
        `UPDATE assets.assets SET model_embedding = NULL, model_embedding_model = NULL, model_embedding_lease = now() + interval '1500 milliseconds'
          WHERE id = ANY ($1::text[])`,
        [batch],
      );
      const before = fake.requests.length;
      await waitFor(async () => (await plain.db.query(`SELECT 1 FROM assets.assets WHERE id = ANY ($1::text[]) AND model_embedding_lease > now()`, [batch])).length === 0, {
        timeoutMs: 10_000,
        intervalMs: 100,
        what: 'the dead replica\'s lease to run out',
      });
      // The live replica is woken as by a new asset (else its 30 s poll finds the batch).
      await plain.db.query(`SELECT pg_notify('assets_model_embedding', '')`);
      const rows = await waitFor(async () => {
        const now = await embeddedWith(batch);
        return batch.every((id) => now[id].model !== null) ? now : undefined;
      }, { timeoutMs: 20_000, intervalMs: 100, what: 'the batch embedded by the live replica' });
      for (const id of batch) expect(rows[id]).toMatchObject({ model: 'fake-clip-2', dims: 9, error: null });
      const sent = fake.requests.slice(before).filter((r) => r.body.modality === 'image').flatMap((r) => r.body.input as string[]);
      expect(sent).toHaveLength(batch.length);
      expect(hitIds(await search(clip, { query: 'a red square' }))[0]).toBe(ids.red);
    }, 60_000);

    it('at shutdown, a call in flight is abandoned and its batch given back at once (not held for the 60 s request timeout)', async () => {
      fake.fail('never-answers');
      try {
        const before = fake.requests.length;
        ids.orange = await uploadPicture(clip, t, '#ee8811', 'IMG_0009.png');
        await waitFor(() => fake.requests.slice(before).some((r) => r.path === '/v1/embeddings'), { timeoutMs: 10_000, what: 'the embedding call' });
        const started = Date.now();
        clipClosed = true;
        await clip.close();
        expect(Date.now() - started).toBeLessThan(8_000);
      } finally {
        fake.fail(undefined);
      }
      const [row] = await plain.db.query<{ model: string | null; due: boolean }>(
        `SELECT model_embedding_model AS model, model_embedding_lease <= now() AS due FROM assets.assets WHERE id = $1`,
        [ids.orange],
      );
      expect(row).toEqual({ model: null, due: true });
    }, 60_000);
  });
});

/** Embedded mode (PGlite, filesystem store, in-process events): the same text-to-image search, one process. */
describe('text-to-image search in embedded mode (PGlite)', () => {
  let fake: FakeOpenai;
  let dataDir: string;
  let harness: ServiceHarness;
  let t: Tenant;

  beforeAll(async () => {
    fake = await FakeOpenai.start({ searchModels: ['fake-clip'] });
    dataDir = mkdtempSync(join(tmpdir(), 'asset-t2i-embedded-'));
    await seedEmbeddedDataDir(dataDir);
    const port = await freePort();
    harness = await startAssetHarness({
      ...embeddedServiceEnv(dataDir, port),
      INFERENCE_BACKENDS_FILE: writeBackendsFile({ clip: { type: 'openai', url: fake.url, models: { searchEmbedding: 'fake-clip' } } }),
    });
    t = await harness.tenant();
  }, 120_000);

  afterAll(async () => {
    await harness?.close();
    await fake?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('embeds uploads in the background and ranks the red picture first for "a red square"; hybrid with an image too', async () => {
    const up = async (colour: string, name: string) =>
      (await harness.request('POST', '/v1/assets', { auth: t.auth.projectMember, body: { image: dataUrl(await png(40, 40, colour)), name } })).body.asset.id as string;
    const red = await up('#dd2222', 'IMG_1.png');
    const blue = await up('#2233dd', 'IMG_2.png');
    // The embedder built the model's HNSW index (migration 0007) when it stored the first vectors: readiness says so.
    await waitFor(async () => (await harness.request('GET', '/readyz')).body?.details?.['search.textToImage'] === 'model fake-clip (backend clip): 0 pending; search: pgvector hnsw (9 dimensions)', {
      timeoutMs: 30_000,
      intervalMs: 200,
      what: "no asset left to embed, and the model's index built",
    });
    const search = (body: unknown) => harness.request('POST', '/v1/search/assets', { auth: t.auth.projectMember, body });
    const text = await search({ query: 'a red square' });
    expect(text.status).toBe(200);
    expect(text.body.hits.map((h: Json) => h.id)).toEqual([red, blue]);
    expect(text.body.hits[0].score).toBeCloseTo(0.5, 5);
    expect((await search({ query: 'a red square', querySemanticRatio: 0 })).body.hits).toEqual([]);
    // Text and image together: (1 - r)·[(1 - q)·text + q·similarity] + r·image similarity (the built-in embedding).
    const hybrid = await search({ query: 'blue', image: blue, imageSemanticRatio: 0.5 });
    expect(hybrid.body.hits[0]).toMatchObject({ id: blue });
    expect(hybrid.body.hits[0].score).toBeCloseTo(0.5 * 0.5 + 0.5 * 1, 3);
  }, 60_000);
});
