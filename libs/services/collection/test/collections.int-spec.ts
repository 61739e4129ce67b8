import type { Tenant } from '@genasset/testing';
import { startCollectionHarness, type CollectionHarness } from './support/collection-harness';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('collections: create, details, update, delete', () => {
  let h: CollectionHarness;
  let a: Tenant;
  let b: Tenant;
  beforeAll(async () => {
    h = await startCollectionHarness();
    [a, b] = await Promise.all([h.tenant(), h.tenant()]);
  });
  afterAll(() => h?.close());

  const rowCount = async (projectId: string) =>
    Number(
      (
        await h.db.query<{ n: string }>(
          'SELECT count(*) AS n FROM collections.collections WHERE project_id = $1',
          [projectId],
        )
      )[0].n,
    );

  it('creates a collection with the upstream shape', async () => {
    const res = await h.request('POST', '/v1/collections', {
      auth: a.auth.projectMember,
      body: { name: 'Heroes' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      collection: {
        id: expect.stringMatching(/^collection_[0-9A-Z]{26}$/),
        name: 'Heroes',
        ownerId: a.projectId,
        assetCount: 0,
        modelCount: 0,
        itemCount: 0,
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      },
    });
    const details = await h.request('GET', `/v1/collections/${res.body.collection.id}`, {
      auth: a.auth.projectAdmin,
    });
    expect(details).toMatchObject({ status: 200, body: res.body });
  });

  it.each([
    ['no name', {}, 'name'],
    ['a number as name', { name: 42 }, 'name'],
    ['a blank name', { name: '   ' }, 'name'],
    ['a name over 256 characters', { name: 'x'.repeat(257) }, 'name'],
    ['a name with a NUL character', { name: 'a\u0000b' }, 'name'],
    ['an unknown field', { name: 'ok', color: 'red' }, 'color'],
  ])('refuses a create with %s: 400 naming the field, nothing stored', async (_label, body, field) => {
    const before = await rowCount(a.projectId);
    const res = await h.request('POST', '/v1/collections', { auth: a.auth.projectMember, body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      apiError: 'validation_error',
      infos: { fields: { [field]: expect.any(Array) } },
    });
    expect(await rowCount(a.projectId)).toBe(before);
  });

  it('refuses a body that is not JSON', async () => {
    const res = await h.request('POST', '/v1/collections', {
      auth: a.auth.projectMember,
      body: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(res).toMatchObject({ status: 400, body: { apiError: 'invalid_json' } });
  });

  it('answers 401 without credentials on every route', async () => {
    const id = 'collection_01JD6Z3Q9V8K2M4N6P8R0T2V4X';
    for (const [method, path] of [
      ['GET', '/v1/collections'],
      ['POST', '/v1/collections'],
      ['GET', `/v1/collections/${id}`],
      ['PUT', `/v1/collections/${id}`],
      ['DELETE', `/v1/collections/${id}`],
      ['PUT', `/v1/collections/${id}/assets`],
      ['DELETE', `/v1/collections/${id}/assets`],
      ['PUT', `/v1/collections/${id}/models`],
      ['DELETE', `/v1/collections/${id}/models`],
    ]) {
      const body = method === 'GET' ? undefined : {};
      expect([method, path, (await h.request(method, path, { body })).status]).toEqual([method, path, 401]);
    }
  });

  describe('update', () => {
    it('renames, keeping the counts, and moves updatedAt', async () => {
      const c = await h.createCollection(a, 'before');
      const res = await h.request('PUT', `/v1/collections/${c.id}`, {
        auth: a.auth.projectMember,
        body: { name: 'after' },
      });
      expect(res.status).toBe(200);
      expect(res.body.collection).toMatchObject({
        id: c.id,
        name: 'after',
        createdAt: c.createdAt,
        itemCount: 0,
      });
      expect(Date.parse(res.body.collection.updatedAt)).toBeGreaterThanOrEqual(Date.parse(c.updatedAt));
      expect(
        (await h.request('GET', `/v1/collections/${c.id}`, { auth: a.auth.projectMember })).body.collection
          .name,
      ).toBe('after');
    });

    it('leaves updatedAt when a PUT changes nothing', async () => {
      const assetId = await h.createAsset(a);
      const c = await h.createCollection(a, 'same');
      const set = await h.request('PUT', `/v1/collections/${c.id}`, {
        auth: a.auth.projectMember,
        body: { thumbnail: assetId },
      });
      expect(set.status).toBe(200);
      const before = set.body.collection;
      await new Promise((resolve) => setTimeout(resolve, 5));
      for (const body of [{ name: 'same' }, { thumbnail: assetId }, { name: 'same', thumbnail: assetId }]) {
        const res = await h.request('PUT', `/v1/collections/${c.id}`, { auth: a.auth.projectMember, body });
        expect([body, res.status, res.body.collection]).toEqual([body, 200, before]);
      }
      const unset = await h.request('PUT', `/v1/collections/${c.id}`, {
        auth: a.auth.projectMember,
        body: { thumbnail: null },
      });
      expect(Date.parse(unset.body.collection.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
      const again = await h.request('PUT', `/v1/collections/${c.id}`, {
        auth: a.auth.projectMember,
        body: { thumbnail: null },
      });
      expect(again.body.collection).toEqual(unset.body.collection);
    });

    it('sets and unsets a thumbnail from the project’s assets', async () => {
      const c = await h.createCollection(a);
      const assetId = await h.createAsset(a);
      const set = await h.request('PUT', `/v1/collections/${c.id}`, {
        auth: a.auth.projectMember,
        body: { thumbnail: assetId },
      });
      expect(set.status).toBe(200);
      expect(set.body.collection.thumbnail).toEqual({
        assetId,
        url: expect.stringMatching(new RegExp(`/v1/assets/${assetId}$`)),
      });
      const unset = await h.request('PUT', `/v1/collections/${c.id}`, {
        auth: a.auth.projectMember,
        body: { thumbnail: null },
      });
      expect(unset.status).toBe(200);
      expect(unset.body.collection).not.toHaveProperty('thumbnail');
    });

    it('refuses another project’s asset as thumbnail with a 404 naming it, changing nothing', async () => {
      const c = await h.createCollection(a, 'keep');
      const foreign = await h.createAsset(b);
      const res = await h.request('PUT', `/v1/collections/${c.id}`, {
        auth: a.auth.projectMember,
        body: { name: 'changed', thumbnail: foreign },
      });
      expect(res).toMatchObject({
        status: 404,
        body: { apiError: 'not_found', error: `asset ${foreign} not found`, infos: { assetIds: [foreign] } },
      });
      expect(
        (await h.request('GET', `/v1/collections/${c.id}`, { auth: a.auth.projectMember })).body.collection,
      ).toEqual(c);
    });

    it.each([
      ['an empty body', {}, 'name'],
      ['a numeric name', { name: 7 }, 'name'],
      ['a null name', { name: null }, 'name'],
      ['a null name beside a null thumbnail', { name: null, thumbnail: null }, 'name'],
      ['a name with a NUL character', { name: 'a\u0000b' }, 'name'],
      ['a malformed thumbnail', { thumbnail: 'picture.png' }, 'thumbnail'],
      ['a thumbnail of the wrong type', { thumbnail: 12 }, 'thumbnail'],
    ])('refuses %s with a 400 naming the field', async (_label, body, field) => {
      const c = await h.createCollection(a, 'same');
      const res = await h.request('PUT', `/v1/collections/${c.id}`, { auth: a.auth.projectMember, body });
      expect(res).toMatchObject({ status: 400, body: { infos: { fields: { [field]: expect.any(Array) } } } });
      expect(
        (await h.request('GET', `/v1/collections/${c.id}`, { auth: a.auth.projectMember })).body.collection,
      ).toEqual(c);
    });
  });

  describe('delete', () => {
    it('deletes the collection and its membership rows, answering {}', async () => {
      const c = await h.createCollection(a);
      const assetId = await h.createAsset(a);
      await h.request('PUT', `/v1/collections/${c.id}/assets`, {
        auth: a.auth.projectMember,
        body: { assetIds: [assetId] },
      });
      const res = await h.request('DELETE', `/v1/collections/${c.id}`, { auth: a.auth.projectMember });
      expect(res).toMatchObject({ status: 200, body: {} });
      expect((await h.request('GET', `/v1/collections/${c.id}`, { auth: a.auth.projectMember })).status).toBe(
        404,
      );
      expect(
        (await h.request('DELETE', `/v1/collections/${c.id}`, { auth: a.auth.projectMember })).status,
      ).toBe(404);
      const rows = await h.db.query('SELECT 1 FROM collections.collection_assets WHERE collection_id = $1', [
        c.id,
      ]);
      expect(rows).toEqual([]);
    });
  });

  describe('ids and tenants', () => {
    it('answers 400 naming collectionId for a malformed id on every route', async () => {
      for (const [method, path, body] of [
        ['GET', '/v1/collections/abc', undefined],
        ['PUT', '/v1/collections/abc', { name: 'x' }],
        ['DELETE', '/v1/collections/abc', undefined],
        ['PUT', '/v1/collections/asset_1/assets', { assetIds: ['asset_1'] }],
        ['DELETE', '/v1/collections/abc/models', { modelIds: ['model_1'] }],
      ] as const) {
        const res = await h.request(method, path, { auth: a.auth.projectMember, body });
        expect([method, path, res.status, res.body.infos?.fields?.collectionId?.length]).toEqual([
          method,
          path,
          400,
          1,
        ]);
      }
    });

    it('hides another project’s collection behind 404 on every route and changes nothing', async () => {
      const c = await h.createCollection(a, 'private');
      const assetOfB = await h.createAsset(b);
      const calls: [string, string, unknown][] = [
        ['GET', `/v1/collections/${c.id}`, undefined],
        ['PUT', `/v1/collections/${c.id}`, { name: 'stolen' }],
        ['PUT', `/v1/collections/${c.id}/assets`, { assetIds: [assetOfB] }],
        ['DELETE', `/v1/collections/${c.id}/assets`, { assetIds: [assetOfB] }],
        ['PUT', `/v1/collections/${c.id}/models`, { modelIds: ['model_01JD6Z3Q9V8K2M4N6P8R0T2V4X'] }],
        ['DELETE', `/v1/collections/${c.id}/models`, { modelIds: ['model_01JD6Z3Q9V8K2M4N6P8R0T2V4X'] }],
        ['DELETE', `/v1/collections/${c.id}`, undefined],
      ];
      for (const auth of [b.auth.projectAdmin, b.auth.teamAdmin]) {
        for (const [method, path, body] of calls) {
          const url = auth === b.auth.teamAdmin ? `${path}?projectId=${b.projectId}` : path;
          const res = await h.request(method, url, { auth, body });
          expect([method, url, res.status, res.body.error]).toEqual([
            method,
            url,
            404,
            `collection ${c.id} not found`,
          ]);
        }
      }
      expect(
        (await h.request('GET', `/v1/collections/${c.id}`, { auth: a.auth.projectMember })).body.collection,
      ).toEqual(c);
    });
  });
});
