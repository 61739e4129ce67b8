import type { Tenant } from '@genasset/testing';
import { pngDataUrl, startGenerationHarness, type GenerationHarness } from './support/generation-harness';

jest.setTimeout(180_000);

// What every generate route shares: who may generate where, image inputs
// (asset ownership, data-URL checks, claim check), dryRun and originalAssets,
// insufficient credits.
describe('generate routes: shared rules', () => {
  let harness: GenerationHarness;
  let tenant: Tenant;
  let other: Tenant;
  let asset: string;
  let image: string;

  beforeAll(async () => {
    harness = await startGenerationHarness();
    [tenant, other] = [await harness.tenant(), await harness.tenant()];
    asset = await harness.uploadAsset(tenant);
    image = await pngDataUrl(40, 30);
  });
  afterAll(async () => {
    await harness?.close();
  });

  const txt2img = { modelId: 'flux.1-dev', prompt: 'a fox' };

  describe('project', () => {
    it('a team-level key must name the project', async () => {
      const res = await harness.request('POST', '/v1/generate/txt2img', {
        auth: tenant.auth.teamMember,
        body: txt2img,
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ apiError: 'project_required', infos: { parameter: 'projectId' } });
    });

    it('a team-level key generates in the project it names', async () => {
      const res = await harness.request('POST', `/v1/generate/txt2img?projectId=${tenant.projectId}`, {
        auth: tenant.auth.teamMember,
        body: txt2img,
      });
      expect(res.status).toBe(200);
      expect(res.body.job.ownerId).toBe(tenant.projectId);
    });

    it("another team's project answers 404", async () => {
      const res = await harness.request('POST', `/v1/generate/txt2img?projectId=${other.projectId}`, {
        auth: tenant.auth.teamMember,
        body: txt2img,
      });
      expect(res.status).toBe(404);
    });

    it('no credentials answer 401', async () => {
      const res = await harness.request('POST', '/v1/generate/txt2img', { body: txt2img });
      expect(res.status).toBe(401);
    });
  });

  describe('image inputs', () => {
    it("another project's asset answers 404 naming the id and the field, creating nothing", async () => {
      const before = await harness.countJobs(other.projectId);
      const res = await harness.request('POST', '/v1/generate/img2img', {
        auth: other.auth.projectMember,
        body: { ...txt2img, image: asset },
      });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ apiError: 'not_found', infos: { id: asset, field: 'image' } });
      expect(res.body.error).toContain(asset);
      expect(await harness.countJobs(other.projectId)).toBe(before);
    });

    it('an unknown asset in a list answers 404 naming its position', async () => {
      const missing = 'asset_01JD4Q3ZK8Y3VZ5N6W0R1T2S3A';
      const res = await harness.request('POST', '/v1/generate/restyle', {
        auth: tenant.auth.projectMember,
        body: { image: asset, styleImages: [asset, missing] },
      });
      expect(res.status).toBe(404);
      expect(res.body.infos).toEqual({ id: missing, field: 'styleImages.1' });
    });

    it('a dry run checks the assets too', async () => {
      const res = await harness.request('POST', '/v1/generate/detect?dryRun=true', {
        auth: other.auth.projectMember,
        body: { image: asset, modality: 'canny' },
      });
      expect(res.status).toBe(404);
    });

    it('stores a data-URL image in object storage and gives the job its key (claim check)', async () => {
      const res = await harness.request('POST', '/v1/generate/upscale', {
        auth: tenant.auth.projectMember,
        body: { image, scalingFactor: 2 },
      });
      expect(res.status).toBe(200);
      const key = res.body.job.metadata.input.image as string;
      expect(key).toMatch(new RegExp(`^generation-inputs/${tenant.projectId}/[0-9A-Z]{26}/image\\.png$`));
      expect(await harness.storedInputs(tenant.projectId)).toContain(key);
    });

    it('bytes that are no image answer 400 invalid_image naming the field', async () => {
      const text = `data:image/png;base64,${Buffer.from('not an image at all').toString('base64')}`;
      const res = await harness.request('POST', '/v1/generate/inpaint', {
        auth: tenant.auth.projectMember,
        body: { ...txt2img, image: asset, mask: text },
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ apiError: 'invalid_image', infos: { field: 'mask' } });
    });

    it('a data URL that is not base64 answers 400 naming the field', async () => {
      const res = await harness.request('POST', '/v1/generate/segment', {
        auth: tenant.auth.projectMember,
        body: { image: 'data:image/png;base64,@@@@' },
      });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.infos.fields)).toEqual(['image']);
    });

    it('an image beyond 25 MiB answers 413 naming the field and the limit', async () => {
      const huge = `data:image/png;base64,${'A'.repeat(Math.ceil((26 * 1024 * 1024 * 4) / 3))}`;
      const res = await harness.request('POST', '/v1/generate/reframe', {
        auth: tenant.auth.projectMember,
        body: { image: huge, targetWidth: 1024, targetHeight: 1024 },
      });
      expect(res.status).toBe(413);
      expect(res.body.infos).toMatchObject({ field: 'image', limit: 25 * 1024 * 1024 });
    });

    it('the sniffed image size prices the request', async () => {
      const small = await harness.request('POST', '/v1/generate/upscale?dryRun=true', {
        auth: tenant.auth.projectMember,
        body: { image, scalingFactor: 2 },
      });
      const large = await harness.request('POST', '/v1/generate/upscale?dryRun=true', {
        auth: tenant.auth.projectMember,
        body: { image: await pngDataUrl(2048, 2048), scalingFactor: 4 },
      });
      expect(large.body.creativeUnitsCost).toBeGreaterThan(small.body.creativeUnitsCost);
    });

    it('an asset id is priced by the asset’s own size, as the same image given as a data URL', async () => {
      const small = await pngDataUrl(128, 96);
      const upload = await harness.request('POST', '/v1/assets', {
        auth: tenant.auth.projectMember,
        body: { image: small, name: 'small.png' },
      });
      expect(upload.status).toBe(200);
      const price = async (mode: string, body: Record<string, unknown>) => {
        const res = await harness.request('POST', `/v1/generate/${mode}?dryRun=true`, {
          auth: tenant.auth.projectMember,
          body,
        });
        expect(res.status).toBe(269);
        return res.body.creativeUnitsCost as number;
      };
      for (const mode of ['upscale', 'skybox-upscale-360']) {
        const asAsset = await price(mode, { image: upload.body.asset.id, scalingFactor: 8 });
        expect(asAsset).toBe(await price(mode, { image: small, scalingFactor: 8 }));
        // 1024 × 1024 would price an 8192² output (18 units); 1024 × 768 costs 2.
        expect(asAsset).toBe(2);
      }
      const audit = await price('upscale', { image: upload.body.asset.id, scalingFactor: 16 });
      expect(audit).toBe(await price('upscale', { image: small, scalingFactor: 16 }));
    });
  });

  describe('bodies as upstream', () => {
    const dryRun = (mode: string, body: unknown) =>
      harness.request('POST', `/v1/generate/${mode}?dryRun=true`, { auth: tenant.auth.projectMember, body });

    it('upscale takes styleImagesFidelity and skybox-upscale-360 styleFidelity, neither the other’s', async () => {
      const styled = { image: asset, styleImages: [asset] };
      expect((await dryRun('upscale', { ...styled, styleImagesFidelity: 70 })).status).toBe(269);
      expect((await dryRun('skybox-upscale-360', { ...styled, styleFidelity: 70 })).status).toBe(269);
      const upscale = await dryRun('upscale', { ...styled, styleFidelity: 70 });
      expect(upscale.status).toBe(400);
      expect(Object.keys(upscale.body.infos.fields)).toEqual(['styleFidelity']);
      const skybox = await dryRun('skybox-upscale-360', { ...styled, styleImagesFidelity: 70 });
      expect(skybox.status).toBe(400);
      expect(Object.keys(skybox.body.infos.fields)).toEqual(['styleImagesFidelity']);
    });

    it('detect takes Canny thresholds above 255 and a grayscale factor above 100', async () => {
      const canny = { image: asset, modality: 'canny', lowThreshold: 400, highThreshold: 1200 };
      expect((await dryRun('detect', canny)).status).toBe(269);
      expect((await dryRun('detect', { image: asset, modality: 'grayscale', factor: 150 })).status).toBe(269);
    });
  });

  describe('the model a job runs', () => {
    const modelOf = async (jobId: string) =>
      (
        await harness.db.query<{ model_id: string | null }>('SELECT model_id FROM jobs.jobs WHERE id = $1', [
          jobId,
        ])
      )[0].model_id;
    const run = async (mode: string, body: unknown) => {
      const res = await harness.request('POST', `/v1/generate/${mode}`, {
        auth: tenant.auth.projectMember,
        body,
      });
      expect(res.status).toBe(200);
      return modelOf(res.body.job.jobId as string);
    };

    it('prompt-editing records the model it runs: the one named, else upstream’s default', async () => {
      const edit = { image: asset, prompt: 'make the sky red' };
      expect(await run('prompt-editing', { ...edit, modelId: 'gpt-image-1' })).toBe('gpt-image-1');
      expect(await run('prompt-editing', edit)).toBe('gemini-2.5-flash');
    });

    it('a mode that runs no model records none', async () => {
      expect(await run('upscale', { image, scalingFactor: 2 })).toBeNull();
    });
  });

  describe('query', () => {
    it.each([
      ['false', 200],
      ['0', 200],
      ['1', 269],
      ['true', 269],
    ])('dryRun=%s answers %d', async (value, status) => {
      const res = await harness.request('POST', `/v1/generate/embed?dryRun=${value}`, {
        auth: tenant.auth.projectMember,
        body: { text: 'x' },
      });
      expect(res.status).toBe(status);
    });

    it('any other dryRun value is refused rather than charged', async () => {
      const res = await harness.request('POST', '/v1/generate/embed?dryRun=yes', {
        auth: tenant.auth.projectMember,
        body: { text: 'x' },
      });
      expect(res.status).toBe(400);
      expect(Object.keys(res.body.infos.fields)).toEqual(['dryRun']);
    });

    it('originalAssets is accepted where the spec lists it and refused where it does not', async () => {
      const detect = await harness.request('POST', '/v1/generate/detect?originalAssets=true', {
        auth: tenant.auth.projectMember,
        body: { image: asset, modality: 'depth' },
      });
      expect(detect.status).toBe(200);
      const caption = await harness.request('POST', '/v1/generate/caption?originalAssets=true', {
        auth: tenant.auth.projectMember,
        body: { images: [asset] },
      });
      expect(caption.status).toBe(400);
      expect(Object.keys(caption.body.infos.fields)).toEqual(['originalAssets']);
    });
  });

  describe('creative units', () => {
    it('insufficient credits answer 402 and leave no job and no stored input', async () => {
      const poor = await harness.tenant();
      const now = Date.now();
      const plan = await harness.request('PUT', `/admin/v1/teams/${poor.teamId}/credit-plan`, {
        auth: `Bearer ${harness.adminToken}`,
        body: {
          totalPeriodCreativeUnits: 5,
          periodStart: new Date(now - 60_000).toISOString(),
          periodEnd: new Date(now + 86_400_000).toISOString(),
        },
      });
      expect(plan.status).toBe(200);
      const body = { ...txt2img, image, strength: 0.5, numSamples: 4, width: 1024, height: 1024 };
      const dry = await harness.request('POST', '/v1/generate/img2img?dryRun=true', {
        auth: poor.auth.projectMember,
        body,
      });
      expect(dry.status).toBe(269);
      expect(dry.body.creativeUnitsCost).toBeGreaterThan(5);

      const res = await harness.request('POST', '/v1/generate/img2img', {
        auth: poor.auth.projectMember,
        body,
      });
      expect(res.status).toBe(402);
      expect(await harness.countJobs(poor.projectId)).toBe(0);
      expect(await harness.storedInputs(poor.projectId)).toEqual([]);

      const cheap = await harness.request('POST', '/v1/generate/img2img', {
        auth: poor.auth.projectMember,
        body: { ...body, numSamples: 1, width: 512, height: 512 },
      });
      expect(cheap.status).toBe(200);
      expect(cheap.body.creativeUnitsCost).toBeLessThanOrEqual(5);
    });
  });
});
