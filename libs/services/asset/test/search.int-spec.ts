import sharp from 'sharp';
import { imageEmbedding } from '../src/embeddings/image-embedding';
import { startAssetHarness, type ServiceHarness, type Tenant } from './support/asset-fixtures';
import { at, seedAssets } from './support/seed';

/** A unit vector of 1024 numbers pointing between the first axes with these weights. */
function vec(...weights: number[]): number[] {
  const v = new Array<number>(1024).fill(0);
  weights.forEach((w, i) => (v[i] = w));
  const norm = Math.hypot(...weights);
  return v.map((x) => x / norm);
}

describe('POST /v1/search/assets', () => {
  let harness: ServiceHarness;
  let t: Tenant;
  let other: Tenant;
  const ids: Record<string, string> = {};

  const search = (body: unknown, auth: string = t.auth.projectMember, query = '') =>
    harness.request('POST', `/v1/search/assets${query}`, { auth, body });
  const hitIds = (res: { body: { hits: { id: string }[] } }) => res.body.hits.map((h) => h.id);

  beforeAll(async () => {
    harness = await startAssetHarness();
    [t, other] = [await harness.tenant(), await harness.tenant()];
    [ids.lighthouseName, ids.lighthousePrompt, ids.catTag, ids.caption, ids.described, ids.plain] = await seedAssets(harness, t, [
      { name: 'Lighthouse at dusk', tags: ['sea'], createdAt: at(1), embedding: vec(1, 0) },
      { metadata: { prompt: 'a red lighthouse on a cliff' }, type: 'inference-txt2img', createdAt: at(2), embedding: vec(1, 1) },
      { tags: ['cats', 'sea'], createdAt: at(3), embedding: vec(0, 1) },
      { metadata: { caption: 'two kittens sleeping' }, createdAt: at(4), privacy: 'public' },
      { description: 'an old lighthouse keeper', createdAt: at(5), embedding: vec(0, 0, 1) },
      { name: 'nothing_to-see.png', createdAt: at(6) },
    ]);
    [ids.otherPrivate, ids.otherPublic] = await seedAssets(harness, other, [
      { name: 'Lighthouse of another tenant', embedding: vec(1, 0), createdAt: at(7) },
      { name: 'Public lighthouse', privacy: 'public', embedding: vec(1, 0.1), createdAt: at(8) },
    ]);
  });
  afterAll(() => harness?.close());

  describe('full text', () => {
    it('matches names, prompts and descriptions, stemmed, the name ranked first; never another tenant', async () => {
      const res = await search({ query: 'lighthouses' });
      expect(res.status).toBe(200);
      expect(hitIds(res)).toEqual([ids.lighthouseName, ids.lighthousePrompt, ids.described]);
      expect(res.body.hits[0].score).toBeGreaterThan(res.body.hits[2].score);
      expect(res.body).toMatchObject({ offset: 0, limit: 20, estimatedTotalHits: 3 });
      expect(res.body.hits[0]).toMatchObject({ ownerId: t.projectId, teamId: t.teamId, nsfw: [], tags: ['sea'] });
      expect(typeof res.body.hits[0].url).toBe('string');
    });

    it('reads file names as words', async () => {
      expect(hitIds(await search({ query: 'see' }))).toEqual([ids.plain]);
    });

    it('matches tags and captions', async () => {
      expect(hitIds(await search({ query: 'cat' }))).toEqual([ids.catTag]);
      expect(hitIds(await search({ query: 'kitten' }))).toEqual([ids.caption]);
    });

    it('with public: true, searches every organisation\'s public assets only', async () => {
      const res = await search({ query: 'lighthouse', public: true });
      expect(res.status).toBe(200);
      expect(hitIds(res)).toEqual([ids.otherPublic]);
    });
  });

  describe('filter', () => {
    it('narrows with =, IN, array containment and dates joined with AND', async () => {
      expect(hitIds(await search({ filter: 'type = inference-txt2img' }))).toEqual([ids.lighthousePrompt]);
      expect(hitIds(await search({ query: 'lighthouse', filter: "tags = sea AND type IN [uploaded, 'canvas']" }))).toEqual([ids.lighthouseName]);
      expect(hitIds(await search({ filter: `createdAt > ${at(4).toISOString()}` }))).toEqual([ids.plain, ids.described]);
      expect(hitIds(await search({ filter: 'privacy != private' }))).toEqual([ids.caption]);
    });

    it.each([
      ['type = a OR type = b', /OR is not supported/],
      ['(type = a)', /parentheses/],
      ['storageKey = x', /not a filterable attribute/],
      ['tags EXISTS', /EXISTS is not supported/],
      ['type > 3', /only supported on createdAt/],
      ['createdAt > yesterday', /ISO 8601/],
      ['type = ', /ends too early/],
    ])('refuses %j with a 400 naming filter', async (filter, message) => {
      const res = await search({ filter });
      expect(res.status).toBe(400);
      expect(res.body.infos.fields.filter.join(' ')).toMatch(message);
    });

    it('refuses authorId and collectionIds with public: true (they would probe other tenants)', async () => {
      const res = await search({ public: true, filter: 'authorId = key_seed' });
      expect(res.status).toBe(400);
      expect(res.body.infos.fields.filter.join(' ')).toMatch(/authorId is not available with public: true/);
    });
  });

  describe('similar images', () => {
    it('ranks by cosine similarity to a referenced asset; assets without embeddings are left out', async () => {
      const res = await search({ image: ids.lighthouseName });
      expect(res.status).toBe(200);
      // The last two are orthogonal to the reference (score 0): newest first.
      expect(hitIds(res)).toEqual([ids.lighthouseName, ids.lighthousePrompt, ids.described, ids.catTag]);
      expect(res.body.hits[0].score).toBeCloseTo(1, 5);
      expect(res.body.hits[1].score).toBeCloseTo(Math.SQRT1_2, 5);
    });

    it('images.like and images.unlike pull and push', async () => {
      const res = await search({ images: { like: [ids.lighthousePrompt], unlike: [ids.catTag] } });
      expect(hitIds(res)[0]).toBe(ids.lighthouseName);
      expect(hitIds(res).at(-1)).toBe(ids.catTag);
    });

    it("uses another organisation's public asset as a reference, but not its private one (read as missing)", async () => {
      expect((await search({ image: ids.otherPublic })).status).toBe(200);
      const res = await search({ image: ids.otherPrivate });
      expect(res.status).toBe(400);
      expect(res.body.infos.fields.image.join(' ')).toMatch(/not found/);
      const listed = await search({ images: { like: [ids.lighthouseName, ids.otherPrivate] } });
      expect(listed.status).toBe(400);
      expect(listed.body.infos.fields['images.like[1]']).toBeDefined();
    });

    it('embeds a data URL with the built-in image embedding', async () => {
      const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: { r: 200, g: 30, b: 30 } } }).png().toBuffer();
      const tenant = await harness.tenant();
      const [red, blue] = await seedAssets(harness, tenant, [
        { embedding: await imageEmbedding(png) },
        { embedding: await imageEmbedding(await sharp({ create: { width: 32, height: 32, channels: 3, background: { r: 20, g: 30, b: 220 } } }).png().toBuffer()) },
      ]);
      const res = await search({ image: `data:image/png;base64,${png.toString('base64')}` }, tenant.auth.projectMember);
      expect(res.status).toBe(200);
      expect(hitIds(res)).toEqual([red, blue]);
      expect(res.body.hits[0].score).toBeCloseTo(1, 4);
      const bad = await search({ image: 'data:image/png;base64,aGVsbG8=' }, tenant.auth.projectMember);
      expect(bad.status).toBe(400);
      expect(bad.body.infos.fields.image.join(' ')).toMatch(/not a readable image/);
    });

    it('accepts a reference image of several MB inline (the upload route body limit, not the 1 MB default)', async () => {
      const noise = Buffer.from(Array.from({ length: 700 * 700 * 3 }, (_, i) => (i * 7919) % 251));
      const png = await sharp(noise, { raw: { width: 700, height: 700, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
      expect(png.length).toBeGreaterThan(1024 * 1024);
      const res = await search({ image: `data:image/png;base64,${png.toString('base64')}` });
      expect(res.status).toBe(200);
    });

    it('hybrid: imageSemanticRatio weighs text against similarity', async () => {
      // "lighthouse" matches the name (rank high), the prompt and the description; the image is the cat-tagged one.
      const textFirst = await search({ query: 'lighthouse', image: ids.catTag, imageSemanticRatio: 0 });
      expect(hitIds(textFirst).slice(0, 3)).toEqual([ids.lighthouseName, ids.lighthousePrompt, ids.described]);
      const imageFirst = await search({ query: 'lighthouse', image: ids.catTag, imageSemanticRatio: 1 });
      expect(hitIds(imageFirst).slice(0, 2)).toEqual([ids.catTag, ids.lighthousePrompt]);
    });
  });

  describe('paging and sorting', () => {
    it('offset/limit, and page/hitsPerPage with totals', async () => {
      const byOffset = await search({ filter: 'kind = image', offset: 1, limit: 2 });
      expect(byOffset.body).toMatchObject({ offset: 1, limit: 2, estimatedTotalHits: 6 });
      expect(hitIds(byOffset)).toEqual([ids.described, ids.caption]);
      const byPage = await search({ filter: 'kind = image', page: 3, hitsPerPage: 2 });
      expect(byPage.body).toMatchObject({ offset: 4, limit: 2, page: 3, hitsPerPage: 2, totalHits: 6, totalPages: 3 });
      expect(hitIds(byPage)).toEqual([ids.lighthousePrompt, ids.lighthouseName]);
    });

    it('sortBy createdAt:asc overrides the score', async () => {
      const res = await search({ query: 'lighthouse', sortBy: ['createdAt:asc'] });
      expect(hitIds(res)).toEqual([ids.lighthouseName, ids.lighthousePrompt, ids.described]);
    });
  });

  describe('bad input: a 400 naming the field', () => {
    it.each([
      [{}, 'query'],
      [{ query: '   ' }, 'query'],
      [{ image: 'x', images: { like: ['y'] } }, 'images'],
      [{ images: {} }, 'images'],
      [{ query: 'a', limit: 101 }, 'limit'],
      [{ query: 'a', limit: 0 }, 'limit'],
      [{ query: 'a', offset: -1 }, 'offset'],
      [{ query: 'a', page: 1, limit: 5 }, 'page'],
      [{ query: 'a', hitsPerPage: 1.5 }, 'hitsPerPage'],
      [{ query: 'a', imageSemanticRatio: 2 }, 'imageSemanticRatio'],
      [{ query: 'a', sortBy: ['name:asc'] }, 'sortBy'],
      [{ query: 'a', public: 'yes' }, 'public'],
      [{ query: 42 }, 'query'],
      [{ image: 'https://example.com/a.png' }, 'image'],
    ])('%j → %s', async (body, field) => {
      const res = await search(body);
      expect(res.status).toBe(400);
      expect(res.body.infos.fields[field]).toBeDefined();
    });

    it('/readyz says image similarity is an exact scan here (no pgvector on this PostgreSQL), and is ready', async () => {
      const ready = await harness.request('GET', '/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body).toMatchObject({ checks: { search: 'ok' }, details: { search: 'exact scan (pgvector not installed)' } });
    });

    it('needs credentials', async () => {
      const res = await harness.request('POST', '/v1/search/assets', { body: { query: 'a' } });
      expect(res.status).toBe(401);
    });
  });
});
