import type { Tenant } from '@genasset/testing';
import { startCollectionHarness, type CollectionHarness } from './support/collection-harness';

describe('collections: list and project scope', () => {
  let h: CollectionHarness;
  let a: Tenant;
  let b: Tenant;
  beforeAll(async () => {
    h = await startCollectionHarness();
    [a, b] = await Promise.all([h.tenant(), h.tenant()]);
  });
  afterAll(() => h?.close());

  describe('list', () => {
    let tenant: Tenant;
    let ids: string[];
    beforeAll(async () => {
      tenant = await h.tenant();
      ids = [];
      for (let i = 0; i < 23; i++) ids.push((await h.createCollection(tenant, `c${i}`)).id);
      ids.reverse(); // newest first
    });

    it('pages newest first, 10 by default, with a keyset token until the last page', async () => {
      const seen: string[] = [];
      let token: string | undefined;
      const sizes: number[] = [];
      do {
        const res = await h.request(
          'GET',
          `/v1/collections${token ? `?paginationToken=${encodeURIComponent(token)}` : ''}`,
          {
            auth: tenant.auth.projectMember,
          },
        );
        expect(res.status).toBe(200);
        sizes.push(res.body.collections.length);
        seen.push(...res.body.collections.map((c: { id: string }) => c.id));
        token = res.body.nextPaginationToken;
      } while (token);
      expect(sizes).toEqual([10, 10, 3]);
      expect(seen).toEqual(ids);
    });

    it('honours pageSize within 1–100 and omits the token on the last page', async () => {
      const one = await h.request('GET', '/v1/collections?pageSize=1', { auth: tenant.auth.projectMember });
      expect(one.body.collections.map((c: { id: string }) => c.id)).toEqual([ids[0]]);
      expect(one.body.nextPaginationToken).toEqual(expect.any(String));
      const all = await h.request('GET', '/v1/collections?pageSize=100', { auth: tenant.auth.projectMember });
      expect(all.body.collections).toHaveLength(23);
      expect(all.body).not.toHaveProperty('nextPaginationToken');
    });

    it('does not repeat or skip rows when a collection is created between pages', async () => {
      const first = await h.request('GET', '/v1/collections?pageSize=5', { auth: tenant.auth.projectMember });
      await h.createCollection(tenant, 'late');
      const second = await h.request(
        'GET',
        `/v1/collections?pageSize=5&paginationToken=${first.body.nextPaginationToken}`,
        {
          auth: tenant.auth.projectMember,
        },
      );
      expect(second.body.collections.map((c: { id: string }) => c.id)).toEqual(ids.slice(5, 10));
    });

    it.each([['0'], ['101'], ['abc'], ['1.5'], ['-3']])(
      'refuses pageSize=%s with a 400 naming pageSize',
      async (value) => {
        const res = await h.request('GET', `/v1/collections?pageSize=${value}`, {
          auth: tenant.auth.projectMember,
        });
        expect(res).toMatchObject({
          status: 400,
          body: { apiError: 'validation_error', infos: { fields: { pageSize: expect.any(Array) } } },
        });
      },
    );

    it('refuses a pagination token it did not issue, and unknown query parameters', async () => {
      const bad = await h.request('GET', '/v1/collections?paginationToken=garbage', {
        auth: tenant.auth.projectMember,
      });
      expect(bad).toMatchObject({
        status: 400,
        body: { infos: { fields: { paginationToken: expect.any(Array) } } },
      });
      const unknown = await h.request('GET', '/v1/collections?sortBy=name', {
        auth: tenant.auth.projectMember,
      });
      expect(unknown).toMatchObject({
        status: 400,
        body: { infos: { fields: { sortBy: expect.any(Array) } } },
      });
    });

    it('lists only the caller’s project', async () => {
      const other = await h.request('GET', '/v1/collections?pageSize=100', { auth: b.auth.projectMember });
      expect(other.body.collections.map((c: { id: string }) => c.id)).not.toEqual(
        expect.arrayContaining([ids[0]]),
      );
      expect(other.body.collections.every((c: { ownerId: string }) => c.ownerId === b.projectId)).toBe(true);
    });
  });

  describe('team-level keys', () => {
    it('need ?projectId= and may use any project of their team', async () => {
      const missing = await h.request('GET', '/v1/collections', { auth: a.auth.teamMember });
      expect(missing).toMatchObject({
        status: 400,
        body: { infos: { fields: { projectId: expect.any(Array) } } },
      });
      const created = await h.request('POST', `/v1/collections?projectId=${a.projectId}`, {
        auth: a.auth.teamAdmin,
        body: { name: 'team' },
      });
      expect(created).toMatchObject({ status: 200, body: { collection: { ownerId: a.projectId } } });
      const seen = await h.request('GET', `/v1/collections/${created.body.collection.id}`, {
        auth: a.auth.projectMember,
      });
      expect(seen.status).toBe(200);
    });

    it('get 404 for another team’s project, and a project key for a project not its own', async () => {
      expect(
        (await h.request('GET', `/v1/collections?projectId=${b.projectId}`, { auth: a.auth.teamAdmin }))
          .status,
      ).toBe(404);
      expect(
        (await h.request('GET', `/v1/collections?projectId=${b.projectId}`, { auth: a.auth.projectAdmin }))
          .status,
      ).toBe(404);
      expect(
        (await h.request('GET', '/v1/collections?projectId=nope', { auth: a.auth.teamAdmin })).status,
      ).toBe(400);
    });
  });
});
