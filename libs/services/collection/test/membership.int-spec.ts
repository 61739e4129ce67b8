import { waitFor, type Tenant } from '@genasset/testing';
import { startCollectionHarness, type CollectionHarness } from './support/collection-harness';

describe('collection membership: add and remove assets and models', () => {
  let h: CollectionHarness;
  let a: Tenant;
  let b: Tenant;
  beforeAll(async () => {
    h = await startCollectionHarness();
    [a, b] = await Promise.all([h.tenant(), h.tenant()]);
  });
  afterAll(() => h?.close());

  const assetsOf = async (tenant: Tenant, n: number) =>
    Promise.all(Array.from({ length: n }, () => h.createAsset(tenant)));
  const members = async (collectionId: string) =>
    (
      await h.db.query<{ asset_id: string }>(
        'SELECT asset_id FROM collections.collection_assets WHERE collection_id = $1 ORDER BY asset_id',
        [collectionId],
      )
    ).map((r) => r.asset_id);
  const put = (tenant: Tenant, id: string, assetIds: unknown) =>
    h.request('PUT', `/v1/collections/${id}/assets`, { auth: tenant.auth.projectMember, body: { assetIds } });
  const del = (tenant: Tenant, id: string, assetIds: unknown) =>
    h.request('DELETE', `/v1/collections/${id}/assets`, {
      auth: tenant.auth.projectMember,
      body: { assetIds },
    });

  it('adds the project’s assets and answers with the collection and its counts', async () => {
    const c = await h.createCollection(a);
    const ids = await assetsOf(a, 3);
    const res = await put(a, c.id, ids);
    expect(res.status).toBe(200);
    expect(res.body.collection).toMatchObject({
      id: c.id,
      assetCount: 3,
      modelCount: 0,
      itemCount: 3,
      name: c.name,
      ownerId: a.projectId,
    });
    expect(await members(c.id)).toEqual([...ids].sort());
    const details = await h.request('GET', `/v1/collections/${c.id}`, { auth: a.auth.projectMember });
    expect(details.body.collection).toEqual(res.body.collection);
  });

  it('ignores ids already in the collection and repeated ids: 200, counted once', async () => {
    const c = await h.createCollection(a);
    const [x, y] = await assetsOf(a, 2);
    await put(a, c.id, [x]);
    const again = await put(a, c.id, [x, y, y, x]);
    expect(again.status).toBe(200);
    expect(again.body.collection).toMatchObject({ assetCount: 2, itemCount: 2 });
    expect(await members(c.id)).toEqual([x, y].sort());
    const unchanged = await put(a, c.id, [x, y]);
    expect(unchanged.body.collection).toEqual(again.body.collection);
  });

  it('refuses the whole batch with a 404 naming every asset that is not the project’s; nothing stored', async () => {
    const c = await h.createCollection(a);
    const [mine] = await assetsOf(a, 1);
    const [theirs] = await assetsOf(b, 1);
    const unknown = 'asset_01JD6Z3Q9V8K2M4N6P8R0T2V4X';
    const res = await put(a, c.id, [mine, theirs, unknown]);
    expect(res).toMatchObject({
      status: 404,
      body: {
        apiError: 'not_found',
        error: `assets ${theirs}, ${unknown} not found`,
        infos: { assetIds: [theirs, unknown] },
      },
    });
    expect(await members(c.id)).toEqual([]);
    expect(
      (await h.request('GET', `/v1/collections/${c.id}`, { auth: a.auth.projectMember })).body.collection,
    ).toEqual(c);
  });

  it('keeps counts exact, and answers 200, under concurrent adds and removes of overlapping assets', async () => {
    const c = await h.createCollection(a);
    const ids = await assetsOf(a, 12);
    const adds = await Promise.all([
      put(a, c.id, ids),
      put(a, c.id, ids.slice(0, 6)),
      put(a, c.id, [...ids.slice(6)].reverse()),
      put(a, c.id, ids),
    ]);
    expect(adds.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const removes = await Promise.all([
      del(a, c.id, ids.slice(0, 4)),
      del(a, c.id, [...ids.slice(2, 7)].reverse()),
      del(a, c.id, ids.slice(0, 7)),
      del(a, c.id, [ids[6], ids[0], ids[3]]),
      put(a, c.id, ids.slice(7)),
    ]);
    expect(removes.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const details = await h.request('GET', `/v1/collections/${c.id}`, { auth: a.auth.projectMember });
    expect(details.body.collection).toMatchObject({ assetCount: 5, itemCount: 5 });
    expect(await members(c.id)).toEqual(ids.slice(7).sort());
  });

  it('removes assets in one call; ids that are not members are ignored', async () => {
    const c = await h.createCollection(a);
    const ids = await assetsOf(a, 4);
    await put(a, c.id, ids);
    const res = await del(a, c.id, [ids[0], ids[1], 'asset_NEVERADDED', ids[0]]);
    expect(res.status).toBe(200);
    expect(res.body.collection).toMatchObject({ assetCount: 2, itemCount: 2 });
    expect(await members(c.id)).toEqual(ids.slice(2).sort());
    const none = await del(a, c.id, ['asset_NEVERADDED']);
    expect(none.body.collection).toMatchObject({ assetCount: 2 });
  });

  it.each([
    ['a missing assetIds', {}, 'assetIds'],
    ['a string instead of a list', { assetIds: 'asset_1' }, 'assetIds'],
    ['an empty list', { assetIds: [] }, 'assetIds'],
    ['numbers in the list', { assetIds: [1, 2] }, 'assetIds'],
    ['a malformed id', { assetIds: ['collection_1'] }, 'assetIds'],
    [
      '50 ids (the limit is 49)',
      { assetIds: Array.from({ length: 50 }, (_, i) => `asset_${i}`) },
      'assetIds',
    ],
    ['an unknown field', { assetIds: ['asset_1'], modelIds: ['model_1'] }, 'modelIds'],
  ])('refuses %s on add and remove with a 400 naming the field', async (_label, body, field) => {
    const c = await h.createCollection(a);
    for (const method of ['PUT', 'DELETE']) {
      const res = await h.request(method, `/v1/collections/${c.id}/assets`, {
        auth: a.auth.projectMember,
        body,
      });
      expect([method, res.status, res.body.apiError, Object.keys(res.body.infos?.fields ?? {})]).toEqual([
        method,
        400,
        'validation_error',
        [field],
      ]);
    }
    expect(await members(c.id)).toEqual([]);
  });

  it('the assets show their collections (collectionIds, ?collectionId=) once the membership facts are applied', async () => {
    const [c, d] = [await h.createCollection(a), await h.createCollection(a)];
    const [x, y] = await assetsOf(a, 2);
    await put(a, c.id, [x, y]);
    await put(a, d.id, [x]);
    const collectionsOf = async (id: string) =>
      (
        (await h.request('GET', `/v1/assets/${id}`, { auth: a.auth.projectMember })).body.asset
          .collectionIds as string[]
      ).sort();
    await waitFor(async () => (await collectionsOf(x)).length === 2, {
      timeoutMs: 30_000,
      what: 'x in two collections',
    });
    expect(await collectionsOf(x)).toEqual([c.id, d.id].sort());
    await waitFor(async () => (await collectionsOf(y)).length === 1, { timeoutMs: 30_000, what: 'y in one' });
    expect(await collectionsOf(y)).toEqual([c.id]);
    const listed = await h.request('GET', `/v1/assets?collectionId=${d.id}`, { auth: a.auth.projectMember });
    expect(listed.body.assets.map((asset: { id: string }) => asset.id)).toEqual([x]);

    await del(a, c.id, [x]);
    await waitFor(async () => (await collectionsOf(x)).length === 1, { timeoutMs: 30_000, what: 'x left c' });
    expect(await collectionsOf(x)).toEqual([d.id]);
    expect(
      (await h.request('DELETE', `/v1/collections/${d.id}`, { auth: a.auth.projectMember })).status,
    ).toBe(200);
    await waitFor(async () => (await collectionsOf(x)).length === 0, {
      timeoutMs: 30_000,
      what: 'd deleted',
    });
    expect(await collectionsOf(y)).toEqual([c.id]);
  });

  it('accepts 49 ids in one call', async () => {
    const c = await h.createCollection(a);
    const ids = await assetsOf(a, 49);
    expect((await put(a, c.id, ids)).body.collection).toMatchObject({ assetCount: 49 });
    expect((await del(a, c.id, ids)).body.collection).toMatchObject({ assetCount: 0 });
  });

  it('answers 404 for an unknown collection before looking at the assets', async () => {
    const [mine] = await assetsOf(a, 1);
    const res = await put(a, 'collection_01JD6Z3Q9V8K2M4N6P8R0T2V4X', [mine]);
    expect(res).toMatchObject({
      status: 404,
      body: { error: 'collection collection_01JD6Z3Q9V8K2M4N6P8R0T2V4X not found' },
    });
  });

  it('does not let one project add its assets to another project’s collection', async () => {
    const c = await h.createCollection(a);
    const [theirs] = await assetsOf(b, 1);
    expect((await put(b, c.id, [theirs])).status).toBe(404);
    expect(await members(c.id)).toEqual([]);
  });

  describe('models', () => {
    it('refuses model ids the registry does not have: 404 naming them, nothing stored', async () => {
      const c = await h.createCollection(a);
      const ids = ['model_01JD6Z3Q9V8K2M4N6P8R0T2V4X', 'model_abc'];
      const res = await h.request('PUT', `/v1/collections/${c.id}/models`, {
        auth: a.auth.projectMember,
        body: { modelIds: ids },
      });
      expect(res).toMatchObject({
        status: 404,
        body: { error: `models ${ids.join(', ')} not found`, infos: { modelIds: ids } },
      });
      const rows = await h.db.query('SELECT 1 FROM collections.collection_models WHERE collection_id = $1', [
        c.id,
      ]);
      expect(rows).toEqual([]);
    });

    it('removes models idempotently (none is a member) and answers with the collection', async () => {
      const c = await h.createCollection(a);
      const res = await h.request('DELETE', `/v1/collections/${c.id}/models`, {
        auth: a.auth.projectMember,
        body: { modelIds: ['model_01JD6Z3Q9V8K2M4N6P8R0T2V4X'] },
      });
      expect(res).toMatchObject({
        status: 200,
        body: { collection: { id: c.id, modelCount: 0, itemCount: 0 } },
      });
    });

    it('adds, counts and removes the project’s registry models; another project’s model is refused like an asset', async () => {
      const model = async (tenant: Tenant, privacy = 'private') => {
        const res = await h.request('POST', '/v1/models', {
          auth: tenant.auth.projectMember,
          body: { name: 'm', privacy },
        });
        expect(res.status).toBe(200);
        return res.body.model.id as string;
      };
      const c = await h.createCollection(a);
      const [m1, m2] = [await model(a), await model(a)];
      const models = (tenant: Tenant, method: 'PUT' | 'DELETE', modelIds: string[]) =>
        h.request(method, `/v1/collections/${c.id}/models`, {
          auth: tenant.auth.projectMember,
          body: { modelIds },
        });
      const added = await models(a, 'PUT', [m1, m2, m1]);
      expect(added.status).toBe(200);
      expect(added.body.collection).toMatchObject({ modelCount: 2, assetCount: 0, itemCount: 2 });
      // Another team's model, even a public one, is not this project's to collect.
      const theirs = await model(b, 'public');
      const refused = await models(a, 'PUT', [theirs]);
      expect(refused).toMatchObject({ status: 404, body: { infos: { modelIds: [theirs] } } });
      // The registry keeps its copy of membership from collection.membership.changed facts.
      const collectionIdsOf = async (id: string) =>
        (await h.request('GET', `/v1/models/${id}`, { auth: a.auth.projectMember })).body.model.collectionIds;
      await waitFor(async () => ((await collectionIdsOf(m2)).includes(c.id) ? true : undefined), {
        timeoutMs: 30_000,
        what: 'collectionIds on the model',
      });
      const listed = await h.request('GET', `/v1/models?collectionId=${c.id}`, {
        auth: a.auth.projectMember,
      });
      expect(listed.body.models.map((m: { id: string }) => m.id).sort()).toEqual([m1, m2].sort());
      const removed = await models(a, 'DELETE', [m1]);
      expect(removed.body.collection).toMatchObject({ modelCount: 1, itemCount: 1 });
      await waitFor(async () => ((await collectionIdsOf(m1)).length === 0 ? true : undefined), {
        timeoutMs: 30_000,
        what: 'the removed model to lose the collection id',
      });
      const rows = await h.db.query<{ model_id: string }>(
        'SELECT model_id FROM collections.collection_models WHERE collection_id = $1',
        [c.id],
      );
      expect(rows.map((r) => r.model_id)).toEqual([m2]);

      // Deleting the model in the registry (model.deleted fact) takes it out of every collection.
      expect((await h.request('DELETE', `/v1/models/${m2}`, { auth: a.auth.projectMember })).status).toBe(
        200,
      );
      await waitFor(
        async () => {
          const res = await h.request('GET', `/v1/collections/${c.id}`, { auth: a.auth.projectMember });
          return res.body.collection.modelCount === 0 ? true : undefined;
        },
        { timeoutMs: 30_000, what: 'the deleted model to leave the collection' },
      );
      expect((await models(a, 'PUT', [m2])).status).toBe(404);

      // Deleting a collection (collection.deleted) clears it from its models.
      const c2 = await h.createCollection(a);
      await h.request('PUT', `/v1/collections/${c2.id}/models`, {
        auth: a.auth.projectMember,
        body: { modelIds: [m1] },
      });
      await waitFor(async () => ((await collectionIdsOf(m1)).includes(c2.id) ? true : undefined), {
        timeoutMs: 30_000,
        what: 'collectionIds on the model',
      });
      expect(
        (await h.request('DELETE', `/v1/collections/${c2.id}`, { auth: a.auth.projectMember })).status,
      ).toBe(200);
      await waitFor(async () => ((await collectionIdsOf(m1)).length === 0 ? true : undefined), {
        timeoutMs: 30_000,
        what: 'the deleted collection to leave the model',
      });
    });

    it('a model transferred to another project of the team leaves the collections of its old project', async () => {
      const { body: created } = await h.request('POST', `/admin/v1/teams/${a.teamId}/projects`, {
        auth: `Bearer ${h.adminToken}`,
        body: { name: 'destination' },
      });
      const made = await h.request('POST', '/v1/models', { auth: a.auth.projectMember, body: { name: 'moving' } });
      const c = await h.createCollection(a);
      await h.request('PUT', `/v1/collections/${c.id}/models`, {
        auth: a.auth.projectMember,
        body: { modelIds: [made.body.model.id] },
      });
      const moved = await h.request('POST', `/v1/models/${made.body.model.id}/transfer?projectId=${a.projectId}`, {
        auth: a.auth.teamAdmin,
        body: { destinationProjectId: created.project.id },
      });
      expect(moved.status).toBe(200);
      await waitFor(
        async () => {
          const res = await h.request('GET', `/v1/collections/${c.id}`, { auth: a.auth.projectMember });
          return res.body.collection.modelCount === 0 ? true : undefined;
        },
        { timeoutMs: 30_000, what: 'the transferred model to leave the collection' },
      );
    });

    it.each([
      ['a string', { modelIds: 'model_1' }],
      ['an asset id', { modelIds: ['asset_1'] }],
      ['50 ids', { modelIds: Array.from({ length: 50 }, (_, i) => `model_${i}`) }],
    ])('refuses %s with a 400 naming modelIds', async (_label, body) => {
      const c = await h.createCollection(a);
      for (const method of ['PUT', 'DELETE']) {
        const res = await h.request(method, `/v1/collections/${c.id}/models`, {
          auth: a.auth.projectMember,
          body,
        });
        expect([method, res.status, Object.keys(res.body.infos?.fields ?? {})]).toEqual([
          method,
          400,
          ['modelIds'],
        ]);
      }
    });
  });
});
