import type { Tenant } from '@genasset/testing';
import { startGenerationHarness, type GenerationHarness } from './support/generation-harness';

jest.setTimeout(180_000);

describe('POST /v1/search/models', () => {
  let harness: GenerationHarness;
  let t: Tenant;
  let other: Tenant;
  const ids: Record<string, string> = {};

  const create = async (tenant: Tenant, body: Record<string, unknown>) => {
    const res = await harness.request('POST', '/v1/models', { auth: tenant.auth.projectAdmin, body });
    if (res.status !== 200) throw new Error(`create model: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.model.id as string;
  };
  const search = (body: unknown, auth: string = t.auth.projectMember) => harness.request('POST', '/v1/search/models', { auth, body });
  const hitIds = (res: { body: { hits: { id: string }[] } }) => res.body.hits.map((h) => h.id);

  beforeAll(async () => {
    harness = await startGenerationHarness();
    [t, other] = [await harness.tenant(), await harness.tenant()];
    ids.named = await create(t, { name: 'Watercolor landscapes', type: 'flux.1-lora', tags: ['art'] });
    ids.short = await create(t, { name: 'Style B', shortDescription: 'soft watercolors of cities', type: 'sd-xl-lora' });
    ids.tagged = await create(t, { name: 'Portraits', tags: ['watercolor', 'faces'], type: 'flux.1-lora' });
    ids.otherPrivate = await create(other, { name: 'Watercolor of another team' });
    ids.otherPublic = await create(other, { name: 'Public watercolor', privacy: 'public' });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it("matches names, descriptions and tags, the name ranked first; never another team's", async () => {
    const res = await search({ query: 'watercolor' });
    expect(res.status).toBe(200);
    expect(hitIds(res)[0]).toBe(ids.named);
    expect(new Set(hitIds(res))).toEqual(new Set([ids.named, ids.short, ids.tagged]));
    expect(res.body).toMatchObject({ offset: 0, limit: 20, estimatedTotalHits: 3 });
    expect(res.body.hits[0]).toMatchObject({ ownerId: t.projectId, teamId: t.teamId, concepts: [], name: 'Watercolor landscapes', shortDescription: '' });
  });

  it('filters and pages', async () => {
    const res = await search({ query: 'watercolor', filter: 'type = flux.1-lora AND tags IN [faces, x]', page: 1, hitsPerPage: 1 });
    expect(res.status).toBe(200);
    expect(hitIds(res)).toEqual([ids.tagged]);
    expect(res.body).toMatchObject({ page: 1, hitsPerPage: 1, totalHits: 1, totalPages: 1 });
  });

  it("public: true searches every team's public models only", async () => {
    expect(hitIds(await search({ query: 'watercolor', public: true }))).toEqual([ids.otherPublic]);
  });

  it.each([
    [{}, 'query'],
    [{ image: 'asset_x' }, 'image'],
    [{ images: { like: ['asset_x'] } }, 'images'],
    [{ filter: 'name = x' }, 'filter'],
    [{ filter: 'type = a OR type = b' }, 'filter'],
    [{ public: true, filter: 'authorId = k' }, 'filter'],
    [{ query: 'a', limit: 500 }, 'limit'],
  ])('%j → 400 naming %s', async (body, field) => {
    const res = await search(body);
    expect(res.status).toBe(400);
    expect(res.body.infos.fields[field]).toBeDefined();
  });
});
