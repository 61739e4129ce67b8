import type { Tenant } from '@genasset/testing';
import { startGenerationHarness, type GenerationHarness } from './support/generation-harness';

jest.setTimeout(180_000);

const PACKS = [{ creativeUnits: 1000, unitAmount: 1200, currency: 'usd', expires: 365 }];

// GET /v1/oscu/prices (public) and GET /v1/recommendations/models, with the real job-service
// counting each model's jobs.
describe('prices and model recommendations', () => {
  let harness: GenerationHarness;
  let t: Tenant;
  let other: Tenant;

  beforeAll(async () => {
    harness = await startGenerationHarness({
      CREATIVE_UNITS_PRICES: JSON.stringify(PACKS),
      CREATIVE_UNITS_COSTS: JSON.stringify({ upscale: { minimum: 3 } }),
    });
    [t, other] = await Promise.all([harness.tenant(), harness.tenant()]);
  });
  afterAll(async () => {
    await harness?.close();
  });

  describe('GET /v1/oscu/prices', () => {
    it('is public: the configured packs and every mode’s rate under this process’s cost table', async () => {
      const res = await harness.request('GET', '/v1/oscu/prices');
      expect(res.status).toBe(200);
      expect(res.body.prices).toEqual(PACKS);
      const rate = (mode: string) => res.body.creativeUnitsCosts.find((c: { mode: string }) => c.mode === mode);
      expect(rate('txt2img')).toEqual({ mode: 'txt2img', group: 'inference', perRequest: 0, perSample: 1, perMegapixel: 4, minimum: 1, discountPercent: 0 });
      expect(rate('upscale')).toMatchObject({ group: 'image', minimum: 3 });
      // Credentials change nothing.
      expect((await harness.request('GET', '/v1/oscu/prices', { auth: t.auth.projectMember })).body).toEqual(res.body);
    });
  });

  describe('GET /v1/recommendations/models', () => {
    const createModel = async (owner: Tenant, body: Record<string, unknown>) => {
      const res = await harness.request('POST', '/v1/models', { auth: owner.auth.projectMember, body });
      if (res.status !== 200) throw new Error(`create model: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.model.id as string;
    };
    const run = async (owner: Tenant, modelId: string, times: number) => {
      for (let i = 0; i < times; i++) {
        const res = await harness.request('POST', `/v1/generate/custom/${modelId}`, { auth: owner.auth.projectMember, body: { prompt: 'x' } });
        expect(res.status).toBe(200);
      }
    };
    const recommend = (query = '', auth = t.auth.projectMember) => harness.request('GET', `/v1/recommendations/models${query}`, { auth });
    const ids = (res: { body: { models: { id: string }[] } }) => res.body.models.map((m) => m.id);

    let rarely: string;
    let often: string;
    let never: string;
    let video: string;
    beforeAll(async () => {
      rarely = await createModel(t, { name: 'rarely', tags: ['style'] });
      often = await createModel(t, { name: 'often', tags: ['style', 'anime'] });
      never = await createModel(t, { name: 'never' });
      video = await createModel(t, { name: 'video', capabilities: ['txt2video'] });
      await run(t, rarely, 1);
      await run(t, often, 3);
      // Another project's heavy use of its own model counts for nothing here.
      await run(other, await createModel(other, { name: 'theirs' }), 4);
    });

    it('the project’s models, most used by its jobs first, then most recently updated; upstream fields present', async () => {
      const res = await recommend();
      expect(res.status).toBe(200);
      expect(ids(res)).toEqual([often, rarely, video, never]);
      expect(res.body.models[0]).toMatchObject({ id: often, ownerId: t.projectId, custom: true, tags: ['style', 'anime'], capabilities: ['txt2img', 'img2img'] });
      expect(res.body.nextToken).toBeUndefined();
    });

    it('filters: capabilities (prefix or suffix), tags, excludeModelIds, type, excludeTypes; pages with nextToken', async () => {
      expect(ids(await recommend('?capabilities=txt2video'))).toEqual([video]);
      expect(ids(await recommend('?capabilities=2img'))).toEqual([often, rarely, never]);
      expect(ids(await recommend('?capabilities=txt2,img2'))).toEqual([often, rarely, never]);
      expect(ids(await recommend('?tags=style'))).toEqual([often, rarely]);
      expect(ids(await recommend(`?excludeModelIds=${often},${never}`))).toEqual([rarely, video]);
      expect(ids(await recommend('?type=custom&excludeTypes=flux.1-lora'))).toHaveLength(4);
      expect(ids(await recommend('?excludeTypes=custom'))).toEqual([]);
      const first = await recommend('?limit=3');
      expect(ids(first)).toEqual([often, rarely, video]);
      const second = await recommend(`?limit=3&nextToken=${first.body.nextToken}`);
      expect(ids(second)).toEqual([never]);
      expect(second.body.nextToken).toBeUndefined();
    });

    it('never recommends another project’s private models; its project id is 404', async () => {
      const theirs = await recommend('', other.auth.projectMember);
      expect(ids(theirs)).not.toContain(often);
      expect((await recommend(`?projectId=${other.projectId}`, t.auth.teamAdmin)).status).toBe(404);
      expect(ids(await recommend(`?projectId=${t.projectId}`, t.auth.teamAdmin))).toEqual([often, rarely, video, never]);
      expect(ids(await recommend('?privacy=public'))).toEqual([]);
    });

    it.each([
      ['limit=0', 'limit'],
      ['limit=31', 'limit'],
      ['privacy=team', 'privacy'],
      ['type=nope', 'type'],
      ['nextToken=zzz', 'nextToken'],
      ['capabilities=a,,b', 'capabilities'],
      ['originalAssets=maybe', 'originalAssets'],
    ])('refuses %s → 400 naming %s', async (query, field) => {
      const res = await recommend(`?${query}`);
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.infos.fields)).toEqual([field]);
    });

    it('no credentials → 401', async () => {
      expect((await harness.request('GET', '/v1/recommendations/models')).status).toBe(401);
    });
  });
});
