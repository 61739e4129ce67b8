import { dataUrl, png, startAssetHarness, uploadCanvas, uploadImage, type ServiceHarness, type Tenant } from './support/asset-fixtures';

const PUBLIC_TOKEN = 'public-auth-token';
const INTERNAL = 'Bearer internal-test-token-0123456789';

interface Route {
  name: string;
  method: string;
  path: (id: string) => string;
  body?: (id: string) => unknown;
}

/** Every asset route that names one asset, with a body that would succeed for its owner. */
const ROUTES: Route[] = [
  { name: 'details', method: 'GET', path: (id) => `/v1/assets/${id}` },
  { name: 'update', method: 'PUT', path: (id) => `/v1/assets/${id}`, body: () => ({ canvas: '{"hijacked":true}', privacy: 'public' }) },
  { name: 'lock', method: 'PUT', path: (id) => `/v1/assets/${id}/lock`, body: () => ({}) },
  { name: 'unlock', method: 'PUT', path: (id) => `/v1/assets/${id}/unlock`, body: () => ({ forceUnlock: true }) },
  { name: 'snapshots', method: 'GET', path: (id) => `/v1/assets/${id}/snapshots` },
  { name: 'tags', method: 'PUT', path: (id) => `/v1/assets/${id}/tags`, body: () => ({ add: ['pwned'] }) },
  { name: 'copy', method: 'POST', path: (id) => `/v1/assets/${id}/copy`, body: () => ({}) },
  { name: 'download', method: 'POST', path: (id) => `/v1/assets/${id}/download`, body: () => ({ targetFormat: 'png' }) },
  { name: 'delete', method: 'DELETE', path: () => `/v1/assets`, body: (id) => ({ assetIds: [id] }) },
];

describe('tenant isolation and access', () => {
  let harness: ServiceHarness;
  let owner: Tenant;
  let intruder: Tenant;
  let canvas: Record<string, any>;
  let image: Record<string, any>;

  beforeAll(async () => {
    harness = await startAssetHarness();
    [owner, intruder] = [await harness.tenant(), await harness.tenant()];
    canvas = await uploadCanvas(harness, owner.auth.projectMember, { owner: true });
    image = await uploadImage(harness, owner.auth.projectMember);
  });
  afterAll(() => harness?.close());

  async function unchanged(): Promise<void> {
    const res = await harness.request('POST', '/v1/assets/get-bulk', { auth: owner.auth.projectAdmin, body: { assetIds: [canvas.id, image.id] } });
    expect(res.body.assets).toHaveLength(2);
    const [c] = res.body.assets;
    expect(c).toMatchObject({ privacy: 'private', tags: [], updatedAt: canvas.updatedAt });
    expect(c.metadata.lockExpiresAt).toBeUndefined();
    expect(await (await fetch(c.url)).text()).toBe('{"owner":true}');
  }

  describe.each(['projectAdmin', 'projectMember', 'teamAdmin'] as const)("another tenant's %s key", (role) => {
    it.each(ROUTES.map((r) => [r.name, r] as const))('%s → 404, nothing revealed or changed', async (_name, route) => {
      const auth = intruder.auth[role];
      const query = role === 'teamAdmin' ? `?projectId=${intruder.projectId}` : '';
      for (const asset of [canvas, image]) {
        const path = route.path(asset.id);
        const res = await harness.request(route.method, `${path}${query}`, { auth, body: route.body?.(asset.id) });
        expect([404]).toContain(res.status);
        expect(JSON.stringify(res.body)).not.toContain(owner.projectId);
      }
      await unchanged();
    });

    it('get-bulk and lists leave the assets out', async () => {
      const auth = intruder.auth[role];
      const query = role === 'teamAdmin' ? `?projectId=${intruder.projectId}` : '';
      const bulk = await harness.request('POST', `/v1/assets/get-bulk${query}`, { auth, body: { assetIds: [canvas.id, image.id] } });
      expect(bulk).toMatchObject({ status: 200, body: { assets: [] } });
      const list = await harness.request('GET', `/v1/assets${query}`, { auth });
      expect(list.body.assets.map((a: { id: string }) => a.id)).not.toContain(image.id);
    });

    it("naming the owner's project → 404", async () => {
      const res = await harness.request('GET', `/v1/assets?projectId=${owner.projectId}`, { auth: intruder.auth[role] });
      expect(res.status).toBe(404);
    });
  });

  it("the owner's team-level key reaches the project when it names it", async () => {
    const res = await harness.request('GET', `/v1/assets/${image.id}?projectId=${owner.projectId}`, { auth: owner.auth.teamMember });
    expect(res.status).toBe(200);
    expect((await harness.request('GET', `/v1/assets/${image.id}`, { auth: owner.auth.teamMember })).body.apiError).toBe('project_required');
  });

  describe('public-auth-token', () => {
    it('is refused (401) on every route but the list and the details', async () => {
      const refused: [string, string, unknown?][] = [
        ['POST', '/v1/assets', { image: dataUrl(await png()) }],
        ['DELETE', '/v1/assets', { assetIds: [image.id] }],
        ['POST', '/v1/assets/get-bulk', { assetIds: [image.id] }],
        ...ROUTES.filter((r) => r.name !== 'details').map((r) => [r.method, r.path(image.id), r.body?.(image.id)] as [string, string, unknown]),
      ];
      for (const [method, path, body] of refused) {
        const res = await harness.request(method, path, { auth: PUBLIC_TOKEN, body });
        expect({ method, path, status: res.status }).toEqual({ method, path, status: 401 });
      }
      await unchanged();
    });

    it('sees public assets only', async () => {
      expect((await harness.request('GET', `/v1/assets/${image.id}`, { auth: PUBLIC_TOKEN })).status).toBe(404);
      const list = await harness.request('GET', '/v1/assets', { auth: PUBLIC_TOKEN });
      expect(list.status).toBe(200);
      expect(list.body.assets.every((a: { privacy: string }) => a.privacy === 'public')).toBe(true);
    });
  });

  describe('internal API (AssetsApi over HTTP)', () => {
    it('answers which ids exist in the tenant project, behind the internal token', async () => {
      const body = {
        tenant: { teamId: owner.teamId, projectId: owner.projectId },
        assetIds: [image.id, canvas.id, 'asset_01ABCDEFGHJKMNPQRSTVWXYZ00', 'garbage'],
      };
      const res = await harness.request('POST', '/internal/v1/assets/existing', { headers: { authorization: INTERNAL }, body });
      expect(res).toMatchObject({ status: 200, body: { assetIds: [image.id, canvas.id] } });
      const foreign = await harness.request('POST', '/internal/v1/assets/existing', {
        headers: { authorization: INTERNAL },
        body: { ...body, tenant: { teamId: intruder.teamId, projectId: intruder.projectId } },
      });
      expect(foreign.body.assetIds).toEqual([]);
      expect((await harness.request('POST', '/internal/v1/assets/existing', { body })).status).toBe(401);
      expect((await harness.request('POST', '/internal/v1/assets/existing', { auth: owner.auth.projectAdmin, body })).status).toBe(401);
      expect((await harness.request('POST', '/internal/v1/assets/existing', { headers: { authorization: INTERNAL }, body: { assetIds: 'x' } })).status).toBe(400);
    });

    it('tells executors where the originals are (claim check), for the tenant project only', async () => {
      const body = { tenant: { teamId: owner.teamId, projectId: owner.projectId }, assetIds: [canvas.id, image.id, 'garbage'] };
      const res = await harness.request('POST', '/internal/v1/assets/objects', { headers: { authorization: INTERNAL }, body });
      expect(res.status).toBe(200);
      expect(res.body.objects).toEqual([
        { assetId: canvas.id, key: expect.stringMatching(new RegExp(`^assets/${owner.projectId}/${canvas.id}/original-`)), mimeType: 'application/json', kind: 'json', type: 'canvas' },
        { assetId: image.id, key: expect.stringMatching(/original-.*\.png$/), mimeType: 'image/png', kind: 'image', type: 'uploaded', width: 64, height: 48 },
      ]);
      const foreign = await harness.request('POST', '/internal/v1/assets/objects', {
        headers: { authorization: INTERNAL },
        body: { ...body, tenant: { teamId: intruder.teamId, projectId: intruder.projectId } },
      });
      expect(foreign.body.objects).toEqual([]);
      expect((await harness.request('POST', '/internal/v1/assets/objects', { body })).status).toBe(401);
    });

    it('answers views, embeddings and copies for the tenant project only (the model registry’s calls)', async () => {
      const tenant = { teamId: owner.teamId, projectId: owner.projectId };
      const foreignTenant = { teamId: intruder.teamId, projectId: intruder.projectId };
      const post = (path: string, body: unknown, headers: Record<string, string> = { authorization: INTERNAL }) =>
        harness.request('POST', `/internal/v1/assets/${path}`, { headers, body });
      const views = await post('views', { tenant, assetIds: [image.id, 'garbage'] });
      expect(views.body.assets).toEqual([expect.objectContaining({ id: image.id, kind: 'image', url: expect.any(String) })]);
      expect((await post('views', { tenant: foreignTenant, assetIds: [image.id] })).body.assets).toEqual([]);
      const embeddings = await post('embeddings', { tenant, assetIds: [image.id, canvas.id] });
      expect(embeddings.body.embeddings).toEqual([{ assetId: image.id, embedding: expect.any(Array) }]);
      expect(embeddings.body.embeddings[0].embedding).toHaveLength(1024);
      expect((await post('embeddings', { tenant: foreignTenant, assetIds: [image.id] })).body.embeddings).toEqual([]);
      expect((await post('copy', { tenant: foreignTenant, assetIds: [image.id], targetProjectId: intruder.projectId })).body.copies).toEqual([]);
      expect((await post('copy', { tenant, assetIds: [image.id] })).status).toBe(400);
      expect((await post('copy', { tenant, assetIds: [image.id], targetProjectId: owner.projectId }, {})).status).toBe(401);
      const copied = await post('copy', { tenant, assetIds: [image.id], targetProjectId: owner.projectId });
      expect(copied.body.copies).toEqual([{ assetId: image.id, copyId: expect.stringMatching(/^asset_/) }]);
      const copy = await harness.request('GET', `/v1/assets/${copied.body.copies[0].copyId}`, { auth: owner.auth.projectMember });
      expect(copy.body.asset.metadata.originalAssetId).toBe(image.id);
    });
  });
});
