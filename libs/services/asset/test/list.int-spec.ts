import { startAssetHarness, type ServiceHarness, type Tenant } from './support/asset-fixtures';
import { at, seedAssets } from './support/seed';

const PUBLIC_TOKEN = 'public-auth-token';

describe('GET /v1/assets: the list rules', () => {
  let harness: ServiceHarness;
  let t: Tenant;
  let other: Tenant;

  beforeAll(async () => {
    harness = await startAssetHarness();
    [t, other] = [await harness.tenant(), await harness.tenant()];
  });
  afterAll(() => harness?.close());

  const list = (query: string, auth: string = t.auth.projectMember) => harness.request('GET', `/v1/assets${query}`, { auth });
  const ids = (res: { body: { assets: { id: string }[] } }) => res.body.assets.map((a) => a.id);

  /** Every page of a query, following nextPaginationToken. */
  async function all(query: string, auth: string = t.auth.projectMember): Promise<string[]> {
    const out: string[] = [];
    let token: string | undefined;
    for (let i = 0; i < 100; i++) {
      const sep = query.includes('?') ? '&' : '?';
      const res = await list(`${query}${token ? `${sep}paginationToken=${encodeURIComponent(token)}` : ''}`, auth);
      expect(res.status).toBe(200);
      out.push(...ids(res));
      token = res.body.nextPaginationToken;
      if (!token) return out;
    }
    throw new Error('too many pages');
  }

  describe('pageSize', () => {
    let tenant: Tenant;
    let seeded: string[];
    beforeAll(async () => {
      tenant = await harness.tenant();
      seeded = await seedAssets(harness, tenant, Array.from({ length: 120 }, (_, i) => ({ createdAt: at(i) })));
    });

    it('defaults to 50, newest first, with a token for the next page', async () => {
      const res = await list('', tenant.auth.projectMember);
      expect(res.status).toBe(200);
      expect(res.body.assets).toHaveLength(50);
      expect(ids(res)).toEqual([...seeded].reverse().slice(0, 50));
      expect(typeof res.body.nextPaginationToken).toBe('string');
    });

    it.each([1, 37, 100])('accepts %i', async (n) => {
      const res = await list(`?pageSize=${n}`, tenant.auth.projectMember);
      expect(res.status).toBe(200);
      expect(res.body.assets).toHaveLength(n);
    });

    it.each(['0', '101', '-1', 'abc', '10.5', ''])('refuses pageSize=%s with a 400 naming it', async (v) => {
      const res = await list(`?pageSize=${v}`, tenant.auth.projectMember);
      expect(res.status).toBe(400);
      expect(res.body.infos.fields.pageSize).toBeDefined();
    });

    it('pages through everything exactly once, and the last page has no token', async () => {
      const got = await all('?pageSize=33', tenant.auth.projectMember);
      expect(got).toEqual([...seeded].reverse());
    });

    it('keyset cursors are stable under concurrent inserts: new assets never shift later pages', async () => {
      const first = await list('?pageSize=10', tenant.auth.projectMember);
      // Inserted after the first page was read: newer than everything (they belong before page 1).
      await seedAssets(harness, tenant, Array.from({ length: 5 }, () => ({ createdAt: new Date() })));
      const second = await list(`?pageSize=10&paginationToken=${encodeURIComponent(first.body.nextPaginationToken)}`, tenant.auth.projectMember);
      expect(ids(second)).toEqual([...seeded].reverse().slice(10, 20));
    });

    it('ties on the timestamp are broken by id, without skipping or repeating', async () => {
      const tie = await harness.tenant();
      const same = at(500);
      const tied = await seedAssets(harness, tie, Array.from({ length: 9 }, () => ({ createdAt: same })));
      const got = await all('?pageSize=2', tie.auth.projectMember);
      expect(got).toEqual([...tied].sort().reverse());
    });

    it('refuses a token from another ordering, and a forged one', async () => {
      const first = await list('?pageSize=5', tenant.auth.projectMember);
      const token = encodeURIComponent(first.body.nextPaginationToken);
      const mixed = await list(`?pageSize=5&sortDirection=asc&paginationToken=${token}`, tenant.auth.projectMember);
      expect(mixed.status).toBe(400);
      expect(mixed.body.infos.fields.paginationToken).toBeDefined();
      for (const forged of ['garbage', Buffer.from('{"o":"createdAt:desc"}').toString('base64url')]) {
        const res = await list(`?paginationToken=${forged}`, tenant.auth.projectMember);
        expect(res.status).toBe(400);
      }
    });
  });

  describe('sorting and date bounds', () => {
    let tenant: Tenant;
    let seeded: string[];
    beforeAll(async () => {
      tenant = await harness.tenant();
      // created in order 0..9; updated in reverse order.
      seeded = await seedAssets(harness, tenant, Array.from({ length: 10 }, (_, i) => ({ createdAt: at(i), updatedAt: at(100 - i) })));
    });
    const q = (s: string) => list(s, tenant.auth.projectMember);

    it('sorts by createdAt or updatedAt, asc or desc', async () => {
      expect(ids(await q('?sortBy=createdAt&sortDirection=asc'))).toEqual(seeded);
      expect(ids(await q('?sortBy=createdAt&sortDirection=desc'))).toEqual([...seeded].reverse());
      expect(ids(await q('?sortBy=updatedAt&sortDirection=asc'))).toEqual([...seeded].reverse());
      expect(ids(await q('?sortBy=updatedAt'))).toEqual(seeded);
      expect(ids(await q('?sortDirection=asc'))).toEqual(seeded);
    });

    it('ascending pages are complete too', async () => {
      expect(await all('?sortBy=updatedAt&sortDirection=asc&pageSize=3', tenant.auth.projectMember)).toEqual([...seeded].reverse());
    });

    it('date bounds are exclusive', async () => {
      const res = await q(`?sortBy=createdAt&sortDirection=asc&createdAfter=${at(2).toISOString()}&createdBefore=${at(6).toISOString()}`);
      expect(ids(res)).toEqual(seeded.slice(3, 6));
      // updated at(100 - i): updatedBefore at(95) excludes i = 0..5 (at(95) itself is i = 5).
      const upd = await q(`?sortBy=updatedAt&sortDirection=asc&updatedBefore=${at(95).toISOString()}`);
      expect(ids(upd)).toEqual(seeded.slice(6).reverse());
    });

    it.each([
      ['createdBefore', ''],
      ['createdAfter', '&sortBy=updatedAt'],
      ['updatedBefore', ''],
      ['updatedAfter', '&sortBy=createdAt'],
    ])('%s without the matching sortBy → 400', async (name, extra) => {
      const res = await q(`?${name}=${at(3).toISOString()}${extra}`);
      expect(res.status).toBe(400);
      expect(res.body.infos.fields[name][0]).toMatch(/requires sortBy=/);
    });

    it.each([['createdAfter=yesterday&sortBy=createdAt'], ['sortBy=name'], ['sortDirection=up']])('refuses %s', async (query) => {
      expect((await q(`?${query}`)).status).toBe(400);
    });
  });

  describe('type and types', () => {
    let tenant: Tenant;
    const byType: Record<string, string[]> = {};
    beforeAll(async () => {
      tenant = await harness.tenant();
      const types = ['uploaded', 'canvas', 'inference-txt2img', 'texture-albedo', 'uploaded', 'canvas', 'inference-txt2img', 'segmentation-mask'];
      const seeded = await seedAssets(harness, tenant, types.map((type, i) => ({ type, createdAt: at(i) })));
      types.forEach((type, i) => (byType[type] ??= []).push(seeded[i]));
    });
    const q = (s: string) => list(s, tenant.auth.projectMember);

    it('type filters one type', async () => {
      expect(ids(await q('?type=canvas&sortDirection=asc'))).toEqual(byType.canvas);
    });

    it('types takes a comma-separated list (form style) and merges the types in order, page by page', async () => {
      const expected = [...byType.canvas, ...byType['inference-txt2img'], ...byType['texture-albedo']].sort().reverse();
      const res = await q('?types=canvas,inference-txt2img,texture-albedo');
      expect(ids(res).sort()).toEqual(expected.sort());
      const paged = await all('?types=canvas,inference-txt2img,texture-albedo&pageSize=2&sortDirection=asc', tenant.auth.projectMember);
      expect(paged).toHaveLength(5);
      expect(new Set(paged).size).toBe(5);
    });

    it('type with types → 400', async () => {
      const res = await q('?type=canvas&types=uploaded');
      expect(res.status).toBe(400);
      expect(res.body.infos.fields.types[0]).toMatch(/cannot be used together/);
    });

    it.each(['?type=photo', '?types=canvas,photo', '?types=', '?types=canvas&types=uploaded', '?type=inference'])('refuses %s', async (query) => {
      expect((await q(query)).status).toBe(400);
    });

    it('accepts every one of the spec types', async () => {
      const { ASSET_TYPES } = await import('../src');
      expect(ASSET_TYPES).toHaveLength(71);
      const res = await q(`?types=${ASSET_TYPES.join(',')}`);
      expect(res.status).toBe(200);
      expect(res.body.assets).toHaveLength(8);
    });
  });

  describe('provenance, lineage, author and collection filters', () => {
    let tenant: Tenant;
    let s: string[];
    beforeAll(async () => {
      tenant = await harness.tenant();
      s = await seedAssets(harness, tenant, [
        { createdAt: at(0) }, // 0 root
        { createdAt: at(1), parentId: 'P0', rootParentId: 'P0' },
        { createdAt: at(2), inferenceId: 'inf_a', modelId: 'model_x', type: 'inference-txt2img' },
        { createdAt: at(3), inferenceId: 'inf_b', modelId: 'model_x', type: 'inference-txt2img' },
        { createdAt: at(4), inferenceId: 'inf_c', modelId: 'model_y', type: 'inference-txt2img' },
        { createdAt: at(5), authorId: 'key_author2', collectionIds: ['col_1', 'col_2'] },
        { createdAt: at(6), collectionIds: ['col_2'] },
      ]);
      // Lineage pointing at seeded ids.
      await harness.db.query(`UPDATE assets.assets SET parent_id = $1, root_parent_id = $1 WHERE id = $2`, [s[0], s[1]]);
      await harness.db.query(`UPDATE assets.assets SET parent_id = $1, root_parent_id = $2 WHERE id = $3`, [s[1], s[0], s[6]]);
      // Another project holds outputs of the same model: never listed here.
      await seedAssets(harness, other, [{ modelId: 'model_x', inferenceId: 'inf_a' }]);
    });
    const q = (query: string) => list(`${query}&sortDirection=asc`, tenant.auth.projectMember);

    it.each([
      ['?inferenceId=inf_a', [2]],
      ['?modelId=model_x', [2, 3]],
      ['?parentAssetId=PARENT', [1]],
      ['?rootAssetId=ROOT', [1, 6]],
      ['?authorId=key_author2', [5]],
      ['?collectionId=col_2', [5, 6]],
      ['?collectionId=col_1&authorId=key_author2', [5]],
      ['?modelId=model_x&type=inference-txt2img', [2, 3]],
    ])('%s', async (query, expected) => {
      const res = await q(query.replace('PARENT', s[0]).replace('ROOT', s[0]));
      expect(res.status).toBe(200);
      expect(ids(res)).toEqual(expected.map((i) => s[i]));
    });

    it.each(['?parentAssetId=nope', '?rootAssetId=asset_', '?inferenceId=a%20b', '?collectionId=', '?unknown=1'])('refuses %s', async (query) => {
      expect((await list(query, tenant.auth.projectMember)).status).toBe(400);
    });
  });

  describe('privacy and tags', () => {
    // Each tenant's assets sit in a time window of their own, so counts are exact.
    const window = (from: number, to: number) => `sortBy=createdAt&createdAfter=${at(from).toISOString()}&createdBefore=${at(to).toISOString()}`;
    let a: Tenant;
    let b: Tenant;
    let sa: string[];
    let sb: string[];
    beforeAll(async () => {
      [a, b] = [await harness.tenant(), await harness.tenant()];
      sa = await seedAssets(harness, a, [
        { createdAt: at(1000), privacy: 'public', tags: ['cat', 'cute'] },
        { createdAt: at(1001), privacy: 'private', tags: ['cat', 'cute'] },
        { createdAt: at(1002), privacy: 'unlisted', tags: ['cat'] },
      ]);
      sb = await seedAssets(harness, b, [
        { createdAt: at(1003), privacy: 'public', tags: ['cat'] },
        { createdAt: at(1004), privacy: 'public', tags: ['dog', 'cute'] },
        { createdAt: at(1005), privacy: 'private', tags: ['cat', 'cute'] },
      ]);
    });

    it('privacy=public returns the public assets of every organisation', async () => {
      const res = await list(`?privacy=public&${window(999, 1006)}&sortDirection=asc`, a.auth.projectMember);
      expect(ids(res)).toEqual([sa[0], sb[0], sb[1]]);
      expect(res.body.assets[1].ownerId).toBe(b.projectId);
    });

    it('privacy=private / unlisted filter within the project', async () => {
      expect(ids(await list(`?privacy=private&${window(999, 1006)}`, a.auth.projectMember))).toEqual([sa[1]]);
      expect(ids(await list(`?privacy=unlisted&${window(999, 1006)}`, a.auth.projectMember))).toEqual([sa[2]]);
      expect(ids(await list(`?${window(999, 1006)}&sortDirection=asc`, a.auth.projectMember))).toEqual(sa);
    });

    it('tags searches public assets across teams (every tag must match)', async () => {
      expect(ids(await list(`?privacy=public&tags=cat&${window(999, 1006)}&sortDirection=asc`, a.auth.projectMember))).toEqual([sa[0], sb[0]]);
      expect(ids(await list(`?privacy=public&tags=cute,cat&${window(999, 1006)}`, b.auth.projectMember))).toEqual([sa[0]]);
      expect(ids(await list(`?tags=dog&${window(999, 1006)}`, PUBLIC_TOKEN))).toEqual([sb[1]]);
    });

    it('tags without privacy=public → 400', async () => {
      const res = await list('?tags=cat', a.auth.projectMember);
      expect(res.status).toBe(400);
      expect(res.body.infos.fields.tags[0]).toMatch(/privacy=public/);
    });

    it('public access lists public assets only, and refuses project filters', async () => {
      expect(ids(await list(`?${window(999, 1006)}&sortDirection=asc`, PUBLIC_TOKEN))).toEqual([sa[0], sb[0], sb[1]]);
      for (const query of ['?privacy=private', `?authorId=key_x`, `?parentAssetId=${sa[0]}`, '?collectionId=c', '?inferenceId=i', `?rootAssetId=${sa[0]}`]) {
        expect((await list(query, PUBLIC_TOKEN)).status).toBe(400);
      }
      expect((await list('?privacy=public', PUBLIC_TOKEN)).status).toBe(200);
    });

    it('the deprecated GET /v1/assets/public needs no credentials and takes the public filters only', async () => {
      const res = await harness.request('GET', `/v1/assets/public?${window(999, 1006)}&sortDirection=asc&pageSize=2`);
      expect(res.status).toBe(200);
      expect(ids(res)).toEqual([sa[0], sb[0]]);
      const next = await harness.request('GET', `/v1/assets/public?${window(999, 1006)}&sortDirection=asc&pageSize=2&paginationToken=${res.body.nextPaginationToken}`);
      expect(ids(next)).toEqual([sb[1]]);
      for (const query of ['privacy=public', 'authorId=x', 'inferenceId=x', `parentAssetId=${sa[0]}`, `rootAssetId=${sa[0]}`, 'collectionId=x']) {
        const refused = await harness.request('GET', `/v1/assets/public?${query}`);
        expect(refused.status).toBe(400);
      }
      expect((await harness.request('GET', `/v1/assets/public?tags=cute&${window(999, 1006)}&modelId=none`)).body.assets).toEqual([]);
    });
  });

  it('never lists another tenant\'s private assets, whatever the filters', async () => {
    const secret = await seedAssets(harness, other, [{ privacy: 'private', tags: ['x'], modelId: 'm_shared', inferenceId: 'inf_shared' }]);
    for (const query of ['', '?modelId=m_shared', '?inferenceId=inf_shared', '?privacy=public', `?parentAssetId=${secret[0]}`]) {
      const res = await list(query);
      expect(res.status).toBe(200);
      expect(ids(res)).not.toContain(secret[0]);
    }
  });
});
