import { MODE_EXAMPLES, type ExampleInputs, type Tenant } from '@genasset/testing';
import { MODE_REGISTRY } from '../src/generate/modes/mode-registry';
import type { ModeDefinition } from '../src/generate/modes/mode-definition';
import { pngDataUrl, startGenerationHarness, type GenerationHarness } from './support/generation-harness';

jest.setTimeout(180_000);

// Every POST /v1/generate/{mode} of the registry: a valid request creates a real
// queued job (job-service in the same process), a dry run answers 269 with the
// cost and creates nothing, an invalid body answers 400 naming the field.
describe('POST /v1/generate/{mode}', () => {
  let harness: GenerationHarness;
  let tenant: Tenant;
  let inputs: ExampleInputs;

  beforeAll(async () => {
    harness = await startGenerationHarness();
    tenant = await harness.tenant();
    inputs = { asset: await harness.uploadAsset(tenant), dataUrl: await pngDataUrl() };
  });
  afterAll(async () => {
    await harness?.close();
  });

  const post = (mode: string, body: unknown, query = '') =>
    harness.request('POST', `/v1/generate/${mode}${query}`, { auth: tenant.auth.projectMember, body });

  it('has an example for every mode of the registry', () => {
    expect(Object.keys(MODE_EXAMPLES).sort()).toEqual(MODE_REGISTRY.map((m) => m.name).sort());
  });

  /** What the 200 body of each response kind must hold besides job and billing. */
  function expectResponseKind(
    mode: ModeDefinition,
    body: Record<string, unknown>,
    sent: Record<string, unknown>,
  ): void {
    const extra = Object.keys(body)
      .filter((k) => !['job', 'creativeUnitsCost', 'creativeUnitsDiscount'].includes(k))
      .sort();
    switch (mode.response) {
      case 'job':
        expect(extra).toEqual([]);
        break;
      case 'job-asset':
        expect(extra).toEqual(['asset']);
        expect(body.asset).toMatchObject({
          status: 'pending',
          source: mode.output!.type,
          metadata: { type: mode.output!.type },
          ownerId: tenant.projectId,
        });
        expect((body.asset as { id: string }).id).toMatch(/^asset_/);
        break;
      case 'inference': {
        expect(extra).toEqual(['inference']);
        const echo = body.inference as Record<string, unknown>;
        expect(echo).toMatchObject({ type: mode.inferenceType, prompt: sent.prompt });
        expect(echo.modelId).toBeUndefined();
        expect(JSON.stringify(echo)).not.toContain('data:image');
        break;
      }
      case 'caption':
        expect(body).toMatchObject({ captions: [], detailsLevel: 'action' });
        break;
      case 'describe-style':
        expect(body).toMatchObject({ description: '', synthesis: '' });
        break;
      case 'embed':
        expect(body).toMatchObject({ embedding: [] });
        break;
      case 'prompt':
        expect(body).toMatchObject({ prompts: [], mode: 'structured' });
        break;
      case 'translate':
        expect(body).toMatchObject({ translation: '', detectedLanguage: '' });
        break;
      case 'segment':
        expect(extra).toEqual([]);
        break;
    }
  }

  describe.each(MODE_REGISTRY.map((mode) => [mode.name, mode] as const))('%s', (name, mode) => {
    const example = MODE_EXAMPLES[name];

    it('creates and answers with a queued job of its type and the billing', async () => {
      const sent = example.valid(inputs);
      const res = await post(name, sent);
      expect(res.status).toBe(200);
      expect(res.body.creativeUnitsCost).toBeGreaterThan(0);
      expect(res.body.creativeUnitsDiscount).toBe(0);
      expect(res.body.job).toMatchObject({
        jobType: mode.jobType,
        status: 'queued',
        ownerId: tenant.projectId,
      });
      expectResponseKind(mode, res.body, sent);

      const stored = await harness.request('GET', `/v1/jobs/${res.body.job.jobId}`, {
        auth: tenant.auth.projectMember,
      });
      expect(stored.status).toBe(200);
      expect(stored.body.job.status).toBe('queued');
      const input = stored.body.job.metadata.input;
      expect(input.generationMode).toBe(name);
      // Claim check: data-URL images are stored, the job carries their keys.
      const text = JSON.stringify(input);
      expect(text).not.toContain('data:image');
      if (JSON.stringify(sent).includes('data:image'))
        expect(text).toContain(`generation-inputs/${tenant.projectId}/`);
      if (mode.output) expect(input.outputAssetId).toBe(res.body.asset.id);
    });

    it('answers a dry run with 269 and the cost, creating nothing', async () => {
      const before = await harness.countJobs(tenant.projectId);
      const storedBefore = (await harness.storedInputs(tenant.projectId)).length;
      const res = await post(name, example.valid(inputs), '?dryRun=true');
      expect(res.status).toBe(269);
      expect(Object.keys(res.body).sort()).toEqual(['creativeUnitsCost', 'creativeUnitsDiscount']);
      expect(res.body.creativeUnitsCost).toBeGreaterThan(0);
      expect(await harness.countJobs(tenant.projectId)).toBe(before);
      expect((await harness.storedInputs(tenant.projectId)).length).toBe(storedBefore);
    });

    it(`refuses an invalid body with 400 naming ${example.field}`, async () => {
      const before = await harness.countJobs(tenant.projectId);
      const res = await post(name, example.invalid(inputs));
      expect(res.status).toBe(400);
      expect(res.body.apiError).toBe('validation_error');
      expect(Object.keys(res.body.infos.fields)).toContain(example.field);
      expect(await harness.countJobs(tenant.projectId)).toBe(before);
    });
  });
});
