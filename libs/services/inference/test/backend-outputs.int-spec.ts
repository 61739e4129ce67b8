import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { S3ObjectStore } from '@genasset/storage';
import { startFakeBackends, testServices, waitFor, WebhookReceiver, type FakeBackends, type Tenant } from '@genasset/testing';
import { verifyEvent } from '@genasset/webhooks';
import { startInferenceHarness, type InferenceHarness } from './support/inference-harness';

jest.setTimeout(240_000);

/** Every backend here takes outputs of at most this many bytes (the schema's least). */
const LIMIT = 1024;
/** PNG by its first bytes, but over the limit. */
const OVERSIZED = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(LIMIT * 3)]);
/** What a misconfigured model answers: text where an image is due. */
const TEXT = Buffer.from('{"detail": "model returned a caption instead of an image"}');

/**
 * Item 7 of issue #19 for each engine (ComfyUI, OpenAI, Replicate, Cog), through the public routes:
 * every file a backend returns goes through the one output path (streamed into the object store,
 * typed by its first bytes, limited to the backend's maxOutputBytes). The asset holds the backend's
 * exact bytes and says where it came from, and `generation.completed` goes out signed; an output
 * over the limit or of the wrong type fails the job saying so and leaves no object behind.
 */
describe('inference-worker: backend outputs, every engine', () => {
  let fakes: FakeBackends;
  let hooks: WebhookReceiver;
  let harness: InferenceHarness;
  let store: S3ObjectStore;
  let tenant: Tenant;
  let secret: string;
  let picture: string;

  beforeAll(async () => {
    [fakes, hooks] = await Promise.all([startFakeBackends({ maxOutputBytes: LIMIT }), WebhookReceiver.start()]);
    harness = await startInferenceHarness({
      webhooks: true,
      env: {
        ...fakes.env,
        INFERENCE_PREVIEW: 'off',
        INFERENCE_MAX_ATTEMPTS: '2',
      },
    });
    store = new S3ObjectStore({ ...testServices().s3, forcePathStyle: true });
    tenant = await harness.tenant();
    const plan = await harness.request('PUT', `/admin/v1/teams/${tenant.teamId}/credit-plan`, {
      auth: `Bearer ${harness.adminToken}`,
      body: { totalPeriodCreativeUnits: 1000, periodStart: new Date(Date.now() - 86_400_000).toISOString(), periodEnd: new Date(Date.now() + 30 * 86_400_000).toISOString() },
    });
    expect(plan.status).toBe(200);
    const endpoint = await harness.request('POST', `/v1/projects/${tenant.projectId}/webhook-endpoints`, {
      auth: tenant.auth.projectAdmin,
      body: { url: hooks.url, enabledEvents: ['generation.completed'] },
    });
    expect(endpoint.status).toBe(200);
    secret = endpoint.body.webhookEndpoint.secret as string;
    const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#3060a0' } }).png().toBuffer();
    picture = `data:image/png;base64,${png.toString('base64')}`;
  });
  afterEach(() => {
    for (const e of fakes.cases) e.replace(undefined);
  });
  afterAll(async () => {
    await harness?.close();
    await store?.close();
    await Promise.all([fakes?.close(), hooks?.close()]);
  });

  /** The keys the job's runs left in the object store (outputs are written under jobs/<jobId>/<attempt>/). */
  const leftovers = async (jobId: string) => {
    const keys: string[] = [];
    for await (const key of store.list(`jobs/${jobId}/`)) keys.push(key);
    return keys;
  };

  describe.each([
    ['comfyui', 'txt2img'],
    ['openai', 'prompt-editing'],
    ['replicate', 'img2img'],
    ['cog', 'upscale'],
  ])('%s (%s)', (engine) => {
    const e = () => fakes.cases.find((c) => c.engine === engine)!;
    it(`the asset holds the backend's exact bytes and records backend, model, seed and workflow; generation.completed is signed`, async () => {
      const request = e().body(picture);
      const body = await harness.generate(tenant, e().mode, request);
      const done = await harness.finalJob(tenant, body.job.jobId);
      expect({ status: done.status, error: done.metadata.output?.errorMessage }).toEqual({ status: 'success', error: undefined });
      expect(done.metadata.output).toMatchObject({ engine: e().engine, backend: e().backend });
      const [assetId] = done.metadata.assetIds as string[];
      const bytes = await harness.assetBytes(tenant, assetId);
      expect(e().served().some((served) => served.equals(bytes))).toBe(true);
      const asset = await harness.asset(tenant, assetId);
      expect(asset.metadata).toMatchObject({ engine: e().engine, ...e().metadata });
      // The request's prompt stays with the asset, as upstream's do (none is made up for a mode without
      // one), so searching for the words of the prompt finds the picture.
      expect(asset.metadata.prompt).toBe(request.prompt);
      if (typeof request.prompt === 'string') {
        const found = await harness.request('POST', '/v1/search/assets', {
          auth: tenant.auth.projectMember,
          body: { query: request.prompt },
        });
        expect(found.status).toBe(200);
        expect(found.body.hits.map((h: { id: string }) => h.id)).toContain(assetId);
      }

      const delivery = await waitFor(
        () => hooks.requests.find((r) => (JSON.parse(r.rawBody.toString()) as { data?: { jobId?: string } }).data?.jobId === done.jobId),
        { what: `generation.completed of ${done.jobId}`, timeoutMs: 30_000 },
      );
      const event = verifyEvent(delivery.rawBody, delivery.headers['x-service-signature'] as string, secret);
      expect(event).toMatchObject({ type: 'generation.completed', data: { jobId: done.jobId } });
    });

    it(`an output over maxOutputBytes fails the job naming the limit, and leaves no object behind`, async () => {
      e().replace(() => OVERSIZED);
      const body = await harness.generate(tenant, e().mode, e().body(picture));
      const done = await harness.finalJob(tenant, body.job.jobId);
      expect(done.status).toBe('failure');
      expect(done.metadata.output.errorMessage).toContain(e().label);
      expect(done.metadata.output.errorMessage).toMatch(/ of (more than )?\d+ bytes; this worker takes at most 1024 \(the backend's maxOutputBytes\)$/);
      expect(done.metadata.output.errorMessage).toMatch(e().what);
      expect(await leftovers(done.jobId)).toEqual([]);
    });

    it(`an output that is not an image fails the job saying what it is, and leaves no object behind`, async () => {
      e().replace(() => TEXT);
      const body = await harness.generate(tenant, e().mode, e().body(picture));
      const done = await harness.finalJob(tenant, body.job.jobId);
      expect(done.status).toBe('failure');
      expect(done.metadata.output.errorMessage).toContain(`${e().label} produced `);
      expect(done.metadata.output.errorMessage).toContain(`, which is not an image (${e().mode} needs an image): it is text ("{\\"detail\\": \\"model returned a caption`);
      expect(done.metadata.output.errorMessage).toMatch(e().what);
      expect(await leftovers(done.jobId)).toEqual([]);
    });
  });
});
