import { startAssetHarness, type Json, type ServiceHarness, type Tenant } from './support/asset-fixtures';
import { seedAssets } from './support/seed';

const PUBLIC_TOKEN = 'public-auth-token';

/**
 * What a public asset tells callers outside its project: nothing about the
 * owner's private collections. Collection ids are the owner's to see; a
 * list of the public scope (public access, or privacy=public with any key)
 * cannot be filtered by one project's collection, parent, root, author or
 * inference, so membership of another tenant's private collection cannot be
 * probed.
 */
describe('public assets outside their project', () => {
  let harness: ServiceHarness;
  let a: Tenant;
  let b: Tenant;
  let published: string;
  let privateOne: string;
  const collection = 'collection_01JD6Z3Q9V8K2M4N6P8R0T2V4X';

  beforeAll(async () => {
    harness = await startAssetHarness();
    [a, b] = [await harness.tenant(), await harness.tenant()];
    [published, privateOne] = await seedAssets(harness, a, [
      { privacy: 'public', collectionIds: [collection], authorId: 'key_author_a', parentId: 'asset_01JD6Z3Q9V8K2M4N6P8R0T2V4Y' },
      { privacy: 'private', collectionIds: [collection] },
    ]);
  });
  afterAll(() => harness?.close());

  const get = (path: string, auth?: string) => harness.request('GET', path, auth ? { auth } : {});
  const find = (res: { body: { assets: Json[] } }, id: string) => res.body.assets.find((x) => x.id === id);

  it('GET /v1/assets/{id}: the owner sees the collection ids; public access and other teams see []', async () => {
    expect((await get(`/v1/assets/${published}`, a.auth.projectMember)).body.asset.collectionIds).toEqual([collection]);
    for (const auth of [PUBLIC_TOKEN, b.auth.projectMember, b.auth.projectAdmin]) {
      const res = await get(`/v1/assets/${published}`, auth);
      expect(res.status).toBe(200);
      expect(res.body.asset.collectionIds).toEqual([]);
    }
    const deprecated = await get(`/v1/assets/public/${published}`);
    expect(deprecated.status).toBe(200);
    expect(deprecated.body.asset.collectionIds).toEqual([]);
  });

  it('POST /v1/assets/get-bulk: another team sees [] as collection ids', async () => {
    const res = await harness.request('POST', '/v1/assets/get-bulk', { auth: b.auth.projectMember, body: { assetIds: [published] } });
    expect(res.status).toBe(200);
    expect(res.body.assets).toHaveLength(1);
    expect(res.body.assets[0].collectionIds).toEqual([]);
  });

  it('lists of the public scope show collection ids to the owner only', async () => {
    const pageSize = 'pageSize=100';
    expect(find(await get(`/v1/assets?privacy=public&${pageSize}`, a.auth.projectMember), published)?.collectionIds).toEqual([collection]);
    for (const [path, auth] of [
      [`/v1/assets?privacy=public&${pageSize}`, b.auth.projectMember],
      [`/v1/assets?${pageSize}`, PUBLIC_TOKEN],
      [`/v1/assets/public?${pageSize}`, undefined],
    ] as const) {
      const res = await get(path, auth);
      expect(res.status).toBe(200);
      expect(find(res, published)?.collectionIds).toEqual([]);
    }
  });

  it.each(['collectionId', 'parentAssetId', 'rootAssetId', 'authorId', 'inferenceId'])(
    'privacy=public&%s=… → 400 naming it, for any key as for public access',
    async (name) => {
      const value = { collectionId: collection, parentAssetId: 'asset_01JD6Z3Q9V8K2M4N6P8R0T2V4Y', rootAssetId: 'asset_01JD6Z3Q9V8K2M4N6P8R0T2V4Y', authorId: 'key_author_a', inferenceId: 'inf_1' }[name];
      for (const auth of [b.auth.projectMember, b.auth.teamMember, a.auth.projectMember, PUBLIC_TOKEN]) {
        const res = await get(`/v1/assets?privacy=public&${name}=${value}`, auth);
        expect(res.status).toBe(400);
        expect(res.body.infos.fields[name][0]).toMatch(/not available with the public scope|not available with public access/);
      }
    },
  );

  it("a project's own filters on its own assets still work", async () => {
    const res = await get(`/v1/assets?collectionId=${collection}`, a.auth.projectMember);
    expect(res.status).toBe(200);
    expect(res.body.assets.map((x: Json) => x.id).sort()).toEqual([published, privateOne].sort());
    expect(res.body.assets.every((x: Json) => x.collectionIds[0] === collection)).toBe(true);
    // B's own project has nothing in A's collection.
    expect((await get(`/v1/assets?collectionId=${collection}`, b.auth.projectMember)).body.assets).toEqual([]);
  });
});
