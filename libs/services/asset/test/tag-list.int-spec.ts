import { MODELS_API } from '@genasset/contracts';
// Test-only exception to the service boundary: GET /v1/tags counts the models
// of generation-service's registry through MODELS_API, composed in one process
// as apps/platform does. Production code of this library never imports it.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { GENERATION_SCHEMA, GENERATION_SERVICE, GenerationServiceModule } from '@genasset/service-generation';
import { ASSETS_API } from '@genasset/contracts';
import { HttpModelsApi, InternalHttpClient } from '@genasset/internal-api';
import { startServiceHarness, type ServiceHarness, type Tenant } from '@genasset/testing';
import { ASSET_SCHEMA, ASSET_SERVICE, AssetServiceModule } from '../src';
import { uploadImage } from './support/asset-fixtures';

const INTERNAL_API_TOKEN = 'int_tag-list-test-token-0123456789';

describe('GET /v1/tags', () => {
  let harness: ServiceHarness;
  let t: Tenant;
  let other: Tenant;

  beforeAll(async () => {
    harness = await startServiceHarness({
      services: [
        { name: ASSET_SERVICE, schema: ASSET_SCHEMA, module: AssetServiceModule, provides: [ASSETS_API] },
        { name: GENERATION_SERVICE, schema: GENERATION_SCHEMA, module: GenerationServiceModule, provides: [MODELS_API] },
      ],
      env: { INTERNAL_API_TOKEN },
    });
    [t, other] = await Promise.all([harness.tenant(), harness.tenant()]);
  });
  afterAll(() => harness?.close());

  const tag = async (tenant: Tenant, tags: string[]) => {
    const asset = await uploadImage(harness, tenant.auth.projectMember);
    const res = await harness.request('PUT', `/v1/assets/${asset.id}/tags`, { auth: tenant.auth.projectMember, body: { add: tags } });
    expect(res.status).toBe(200);
    return asset.id as string;
  };
  const model = async (tenant: Tenant, tags: string[]) => {
    const res = await harness.request('POST', '/v1/models', { auth: tenant.auth.projectMember, body: { name: 'm', tags } });
    expect(res.status).toBe(200);
  };
  const list = (path: string, auth = t.auth.projectMember) => harness.request('GET', path, { auth });

  it('every tag of the project, assets and models counted together, by name; another tenant\'s tags never appear', async () => {
    await tag(t, ['landscape', 'night']);
    await tag(t, ['landscape']);
    await model(t, ['landscape', 'style']);
    await model(t, ['style']);
    await tag(other, ['landscape', 'secret']);
    await model(other, ['style', 'secret-model']);

    const res = await list('/v1/tags');
    expect(res.status).toBe(200);
    expect(res.body.tags.map((x: { tagName: string; itemCount: number }) => [x.tagName, x.itemCount])).toEqual([
      ['landscape', 3],
      ['night', 1],
      ['style', 2],
    ]);
    expect(res.body.nextPaginationToken).toBeUndefined();
    for (const x of res.body.tags) {
      expect(x.ownerId).toBe(t.projectId);
      expect(new Date(x.createdAt).toISOString()).toBe(x.createdAt);
      expect(x.updatedAt >= x.createdAt).toBe(true);
    }

    // A team-level key names the project; another team's project is 404.
    const team = await list(`/v1/tags?projectId=${t.projectId}`, t.auth.teamAdmin);
    expect(team.body.tags).toEqual(res.body.tags);
    expect((await list(`/v1/tags?projectId=${other.projectId}`, t.auth.teamAdmin)).status).toBe(404);
    expect((await list(`/v1/tags?projectId=${other.projectId}`)).status).toBe(404);
  });

  it('pages by name with nextPaginationToken; pages are exact where assets and models share tags', async () => {
    const tenant = await harness.tenant();
    await tag(tenant, ['a', 'c', 'e']);
    await model(tenant, ['b', 'c', 'd']);
    const seen: [string, number][] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const res = await list(`/v1/tags?pageSize=2${token ? `&paginationToken=${token}` : ''}`, tenant.auth.projectMember);
      expect(res.status).toBe(200);
      expect(res.body.tags.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.tags.map((x: { tagName: string; itemCount: number }) => [x.tagName, x.itemCount] as [string, number]));
      token = res.body.nextPaginationToken;
      pages++;
    } while (token);
    expect(seen).toEqual([['a', 1], ['b', 1], ['c', 2], ['d', 1], ['e', 1]]);
    expect(pages).toBe(3);
  });

  it.each([
    ['pageSize=0', 'pageSize'],
    ['pageSize=101', 'pageSize'],
    ['pageSize=abc', 'pageSize'],
    ['paginationToken=nope', 'paginationToken'],
    ['projectId=bad%20id', 'projectId'],
  ])('refuses %s → 400 naming %s', async (query, field) => {
    const res = await list(`/v1/tags?${query}`);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(field);
  });

  it('ModelsApi.tagCounts answers the same over HTTP (a process without generation-service)', async () => {
    const tenant = await harness.tenant();
    await model(tenant, ['x', 'y']);
    await model(tenant, ['y']);
    const remote = new HttpModelsApi(new InternalHttpClient('generation-service', harness.url, INTERNAL_API_TOKEN));
    const counts = await remote.tagCounts({ teamId: tenant.teamId, projectId: tenant.projectId }, { limit: 10 });
    expect(counts.map((c) => [c.tagName, c.itemCount])).toEqual([['x', 1], ['y', 2]]);
    expect((await remote.tagCounts({ teamId: tenant.teamId, projectId: tenant.projectId }, { after: 'x', limit: 10 })).map((c) => c.tagName)).toEqual(['y']);
  });

  it('no credentials → 401; a team-level key without projectId → 400', async () => {
    expect((await harness.request('GET', '/v1/tags')).status).toBe(401);
    expect((await list('/v1/tags', t.auth.teamAdmin)).status).toBe(400);
  });
});
