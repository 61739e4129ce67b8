import { sleep, TOPICS } from '@genasset/contracts';
import { TopicReader } from '@genasset/testing';
import { createHash } from 'node:crypto';
import { dataUrl, listObjects, png, startAssetHarness, uploadCanvas, uploadImage, type ServiceHarness, type Tenant } from './support/asset-fixtures';

const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();

describe('canvases: update, lock, unlock, snapshots', () => {
  let harness: ServiceHarness;
  let t: Tenant;
  let facts: TopicReader;

  beforeAll(async () => {
    harness = await startAssetHarness();
    facts = await new TopicReader(TOPICS.assetEvents).start();
    t = await harness.tenant();
  });
  afterAll(async () => {
    await facts?.stop();
    await harness?.close();
  });

  const put = (id: string, path: string, body: unknown, auth = t.auth.projectMember) =>
    harness.request('PUT', `/v1/assets/${id}${path}`, { auth, body });
  const content = async (asset: { url: string }) => (await fetch(asset.url)).text();

  describe('PUT /v1/assets/{assetId}', () => {
    it('replaces the content, records a snapshot, publishes asset.updated and deletes the replaced object', async () => {
      const canvas = await uploadCanvas(harness, t.auth.projectMember, { v: 1 });
      const before = await listObjects(`assets/${t.projectId}/${canvas.id}/`);
      const res = await put(canvas.id, '', { canvas: '{"v":2}', name: 'renamed', description: 'second version' });
      expect(res.status).toBe(200);
      expect(res.body.asset).toMatchObject({ id: canvas.id, description: 'second version', metadata: { name: 'renamed' }, properties: { size: 7 } });
      expect(new Date(res.body.asset.updatedAt) > new Date(canvas.updatedAt)).toBe(true);
      expect(await content(res.body.asset)).toBe('{"v":2}');
      const after = await listObjects(`assets/${t.projectId}/${canvas.id}/`);
      expect(after).toHaveLength(1);
      expect(after).not.toEqual(before);
      const snapshots = await harness.request('GET', `/v1/assets/${canvas.id}/snapshots`, { auth: t.auth.projectMember });
      expect(snapshots.status).toBe(200);
      expect(snapshots.body.snapshots).toEqual([
        { takenAt: expect.any(Number), rawData: '{"v":2}', authorId: res.body.asset.authorId, hash: createHash('sha256').update('{"v":2}').digest('hex') },
      ]);
      expect(snapshots.body.nextPaginationToken).toBeUndefined();
      await facts.waitFor(canvas.id, 'asset.updated');
    });

    it('disableSnapshot skips the snapshot; a new thumbnail replaces the old one', async () => {
      const canvas = await uploadCanvas(harness, t.auth.projectMember);
      const res = await put(canvas.id, '', { canvas: '{"quiet":true}', disableSnapshot: true, thumbnail: dataUrl(await png(4, 4)) });
      expect(res.status).toBe(200);
      expect(res.body.asset.thumbnail.url).toBeDefined();
      const snapshots = await harness.request('GET', `/v1/assets/${canvas.id}/snapshots`, { auth: t.auth.projectMember });
      expect(snapshots.body.snapshots).toEqual([]);
    });

    it('privacy, name and description apply to any asset; canvas and thumbnail to canvases only', async () => {
      const image = await uploadImage(harness, t.auth.projectMember);
      const published = await put(image.id, '', { privacy: 'public', description: 'shared' });
      expect(published.body.asset).toMatchObject({ privacy: 'public', description: 'shared' });
      expect((await harness.request('GET', `/v1/assets/${image.id}`, { auth: 'public-auth-token' })).status).toBe(200);
      const [fact] = (await facts.waitFor(image.id, 'asset.updated')).slice(-1);
      expect(fact.envelope.data.privacy).toBe('public');
      const notCanvas = await put(image.id, '', { canvas: '{}' });
      expect(notCanvas).toMatchObject({ status: 400, body: { apiError: 'not_a_canvas' } });
    });

    it.each([
      ['an empty body', {}],
      ['canvas that is not JSON', { canvas: '{oops' }],
      ['canvas of the wrong type', { canvas: { a: 1 } }],
      ['an unknown privacy', { privacy: 'secret' }],
      ['disableSnapshot as a string', { canvas: '{}', disableSnapshot: 'yes' }],
      ['lockExpiresAt without lockId', { lockExpiresAt: inSeconds(60) }],
      ['a thumbnail that is not an image', { thumbnail: 'aGVsbG8=' }],
    ])('refuses %s → 400', async (_label, body) => {
      const canvas = await uploadCanvas(harness, t.auth.projectMember);
      const res = await put(canvas.id, '', body);
      expect(res.status).toBe(400);
      expect(await listObjects(`assets/${t.projectId}/${canvas.id}/`)).toHaveLength(1);
    });
  });

  describe('locks', () => {
    it('lock → {asset, lockId}; a second locker gets 409 naming the expiry; only the holder may update', async () => {
      const canvas = await uploadCanvas(harness, t.auth.projectMember);
      const expiresAt = inSeconds(120);
      const locked = await put(canvas.id, '/lock', { lockExpiresAt: expiresAt });
      expect(locked.status).toBe(200);
      expect(locked.body).toMatchObject({ lockId: expect.any(String), asset: { id: canvas.id, metadata: { lockExpiresAt: new Date(expiresAt).toISOString() } } });
      const { lockId } = locked.body;

      const second = await put(canvas.id, '/lock', { lockExpiresAt: inSeconds(60) }, t.auth.projectAdmin);
      expect(second.status).toBe(409);
      expect(second.body).toMatchObject({ apiError: 'canvas_locked', infos: { lockExpiresAt: new Date(expiresAt).toISOString() } });
      expect(second.body.error).toContain(new Date(expiresAt).toISOString());

      const withoutLock = await put(canvas.id, '', { canvas: '{"intruder":1}' }, t.auth.projectAdmin);
      expect(withoutLock).toMatchObject({ status: 409, body: { apiError: 'canvas_locked' } });
      const wrongLock = await put(canvas.id, '', { canvas: '{"intruder":2}', lockId: 'lock_forged' });
      expect(wrongLock.status).toBe(409);
      const holder = await put(canvas.id, '', { canvas: '{"holder":1}', lockId });
      expect(holder.status).toBe(200);
      expect(await content(holder.body.asset)).toBe('{"holder":1}');

      // The holder extends its lock while updating.
      const extended = inSeconds(600);
      const extend = await put(canvas.id, '', { name: 'x', lockId, lockExpiresAt: extended });
      expect(extend.body.asset.metadata.lockExpiresAt).toBe(new Date(extended).toISOString());
    });

    it('exactly one of concurrent lockers wins', async () => {
      const canvas = await uploadCanvas(harness, t.auth.projectMember);
      const results = await Promise.all(Array.from({ length: 6 }, () => put(canvas.id, '/lock', {})));
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      expect(results.filter((r) => r.status === 409)).toHaveLength(5);
    });

    it('expiry is honoured: once it passes, anyone may lock or write, and the old lockId is refused', async () => {
      const canvas = await uploadCanvas(harness, t.auth.projectMember);
      const first = await put(canvas.id, '/lock', { lockExpiresAt: inSeconds(1.2) });
      expect(first.status).toBe(200);
      expect((await put(canvas.id, '/lock', {})).status).toBe(409);
      await sleep(1400);
      const details = await harness.request('GET', `/v1/assets/${canvas.id}`, { auth: t.auth.projectMember });
      expect(details.body.asset.metadata.lockExpiresAt).toBeUndefined();
      const stale = await put(canvas.id, '', { canvas: '{"late":1}', lockId: first.body.lockId });
      expect(stale).toMatchObject({ status: 409, body: { apiError: 'lock_expired' } });
      expect((await put(canvas.id, '', { canvas: '{"free":1}' })).status).toBe(200);
      const second = await put(canvas.id, '/lock', {}, t.auth.projectAdmin);
      expect(second.status).toBe(200);
      expect(second.body.lockId).not.toBe(first.body.lockId);
    });

    it('defaults to 5 minutes; refuses a past expiry, one beyond an hour, and a non-date', async () => {
      const canvas = await uploadCanvas(harness, t.auth.projectMember);
      for (const lockExpiresAt of [inSeconds(-5), inSeconds(3700), 'tomorrow']) {
        const res = await put(canvas.id, '/lock', { lockExpiresAt });
        expect(res.status).toBe(400);
        expect(res.body.infos.fields.lockExpiresAt).toBeDefined();
      }
      const res = await put(canvas.id, '/lock', {});
      const ms = new Date(res.body.asset.metadata.lockExpiresAt).getTime() - Date.now();
      expect(ms).toBeGreaterThan(280_000);
      expect(ms).toBeLessThanOrEqual(300_000);
    });

    it('unlock with the lockId; a wrong one → 409; none → 400; forceUnlock needs a project admin', async () => {
      const canvas = await uploadCanvas(harness, t.auth.projectMember);
      const { lockId } = (await put(canvas.id, '/lock', {})).body;
      expect((await put(canvas.id, '/unlock', { lockId: 'lock_wrong' })).status).toBe(409);
      expect((await put(canvas.id, '/unlock', {})).status).toBe(400);
      expect((await put(canvas.id, '/unlock', { forceUnlock: true })).status).toBe(403);
      const unlocked = await put(canvas.id, '/unlock', { lockId });
      expect(unlocked.status).toBe(200);
      expect(unlocked.body.asset.metadata.lockExpiresAt).toBeUndefined();
      expect((await put(canvas.id, '/unlock', { lockId })).status).toBe(200);

      await put(canvas.id, '/lock', {});
      const forced = await put(canvas.id, '/unlock', { forceUnlock: true }, t.auth.projectAdmin);
      expect(forced.status).toBe(200);
      expect((await put(canvas.id, '/lock', {})).status).toBe(200);
    });

    it('locks, unlocks and snapshots are for canvases only', async () => {
      const image = await uploadImage(harness, t.auth.projectMember);
      expect((await put(image.id, '/lock', {})).body.apiError).toBe('not_a_canvas');
      expect((await put(image.id, '/unlock', { forceUnlock: true }, t.auth.projectAdmin)).status).toBe(400);
      expect((await harness.request('GET', `/v1/assets/${image.id}/snapshots`, { auth: t.auth.projectMember })).status).toBe(400);
    });
  });

  describe('GET /v1/assets/{assetId}/snapshots', () => {
    it('newest first, pageSize 10 by default, 10 to 100, paginated', async () => {
      const canvas = await uploadCanvas(harness, t.auth.projectMember);
      for (let i = 1; i <= 13; i++) expect((await put(canvas.id, '', { canvas: JSON.stringify({ i }) })).status).toBe(200);
      const first = await harness.request('GET', `/v1/assets/${canvas.id}/snapshots`, { auth: t.auth.projectMember });
      expect(first.body.snapshots).toHaveLength(10);
      expect(first.body.snapshots[0].rawData).toBe('{"i":13}');
      const second = await harness.request('GET', `/v1/assets/${canvas.id}/snapshots?paginationToken=${first.body.nextPaginationToken}`, {
        auth: t.auth.projectMember,
      });
      expect(second.body.snapshots.map((s: { rawData: string }) => JSON.parse(s.rawData).i)).toEqual([3, 2, 1]);
      expect(second.body.nextPaginationToken).toBeUndefined();
      expect((await harness.request('GET', `/v1/assets/${canvas.id}/snapshots?pageSize=100`, { auth: t.auth.projectMember })).body.snapshots).toHaveLength(13);
      for (const [pageSize, message] of [['9', /10 to 100/], ['101', /10 to 100/], ['1', /10 to 100/], ['ten', /decimal integer/], ['1e2', /decimal integer/]] as const) {
        const res = await harness.request('GET', `/v1/assets/${canvas.id}/snapshots?pageSize=${pageSize}`, { auth: t.auth.projectMember });
        expect(res.status).toBe(400);
        expect(res.body.infos.fields.pageSize[0]).toMatch(message);
      }
      const forged = await harness.request('GET', `/v1/assets/${canvas.id}/snapshots?paginationToken=abc`, { auth: t.auth.projectMember });
      expect(forged.status).toBe(400);
    });
  });
});
