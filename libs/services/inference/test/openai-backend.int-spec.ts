import sharp from 'sharp';
import { FakeOpenai, waitFor, WebhookReceiver, type Tenant } from '@genasset/testing';
import { verifyEvent } from '@genasset/webhooks';
import { openaiBackendsFile } from './support/openai-backends';
import { startBackendSuite, type BackendSuite } from './support/backend-suite';
import type { InferenceHarness } from './support/inference-harness';

jest.setTimeout(180_000);

// Generation through an OpenAI-compatible backend, end to end: the generate routes, the job, the
// worker calling the (fake) server, assets holding its bytes, result fields, webhooks — and failures.
describe('inference-worker: an OpenAI-compatible backend', () => {
  let fake: FakeOpenai;
  let suite: BackendSuite;
  let harness: InferenceHarness;
  let hooks: WebhookReceiver;
  let tenant: Tenant;

  beforeAll(async () => {
    fake = await FakeOpenai.start({ apiKey: 'sk-test', models: ['dall-e-2', 'gpt-4o-mini', 'text-embedding-3-small'] });
    ({ harness, hooks, tenant } = suite = await startBackendSuite({
      INFERENCE_BACKENDS_FILE: openaiBackendsFile(fake.url),
      OPENAI_TEST_KEY: 'sk-test',
      INFERENCE_MAX_ATTEMPTS: '2',
      INFERENCE_RETRY_DELAY: '200ms',
      GENERATION_RESULT_WAIT: '60s',
    }));
  });
  afterEach(() => fake.fail(undefined));
  afterAll(async () => {
    await suite?.close();
    await fake?.close();
  });

  const usage = () => suite.usedUnits();

  it('txt2img: the assets hold the server\'s bytes; generation.completed goes out; /readyz shows the backend', async () => {
    const endpoint = await harness.request('POST', `/v1/projects/${tenant.projectId}/webhook-endpoints`, {
      auth: tenant.auth.projectAdmin,
      body: { url: hooks.url, enabledEvents: ['generation.completed'] },
    });
    expect(endpoint.status).toBe(200);
    expect((await harness.request('GET', '/readyz')).body.checks['backend:gpt']).toBe('ok');

    const body = await harness.generate(tenant, 'txt2img', { modelId: 'sd15', prompt: 'a lighthouse', numSamples: 2, width: 128, height: 64 });
    const done = await harness.finalJob(tenant, body.job.jobId);
    expect(done.status).toBe('success');
    expect(done.metadata.output).toMatchObject({ engine: 'openai', backend: 'gpt' });
    const call = fake.requests.find((r) => r.path === '/v1/images/generations')!;
    expect(call).toMatchObject({ authorization: 'Bearer sk-test', body: { model: 'dall-e-2', prompt: 'a lighthouse', n: 2, size: '128x64' } });
    const assetIds = done.metadata.assetIds as string[];
    expect(assetIds).toHaveLength(2);
    for (const [i, assetId] of assetIds.entries()) {
      expect((await harness.assetBytes(tenant, assetId)).equals(fake.images[i])).toBe(true);
      expect((await harness.asset(tenant, assetId)).metadata).toMatchObject({
        type: 'inference-txt2img',
        engine: 'openai',
        backend: 'gpt',
        backendModel: 'dall-e-2',
      });
    }
    const [delivery] = await hooks.waitForRequests(1, 30_000);
    const event = verifyEvent(delivery.rawBody, delivery.headers['x-service-signature'] as string, endpoint.body.webhookEndpoint.secret);
    expect(event).toMatchObject({ type: 'generation.completed', data: { jobId: done.jobId } });
  });

  it('caption, embed and translate: the route answers with the server\'s words, the job output holds them', async () => {
    const image = await sharp({ create: { width: 32, height: 16, channels: 3, background: '#c03030' } }).png().toBuffer();
    const caption = await harness.generate(tenant, 'caption', { images: [`data:image/png;base64,${image.toString('base64')}`] });
    expect(caption.captions).toEqual(['A fake caption of 1 image(s).']);
    expect(caption.job.metadata.output).toMatchObject({ captions: caption.captions, engine: 'openai', backend: 'gpt' });
    const chat = fake.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)!.body as { messages: { content: { type: string }[] }[] };
    expect(chat.messages[1].content.map((p) => p.type)).toEqual(['image_url']);

    const embed = await harness.generate(tenant, 'embed', { text: 'a red fox' });
    expect(embed.embedding).toHaveLength(8);
    const translate = await harness.generate(tenant, 'translate', { prompt: 'un renard roux' });
    expect({ translation: translate.translation, detectedLanguage: translate.detectedLanguage }).toEqual({
      translation: 'English for: un renard roux',
      detectedLanguage: 'fr',
    });
  });

  it('honours 429 retry-after: the call waits as asked, then the job succeeds', async () => {
    fake.fail('rate-limited', { times: 1, retryAfterS: 1 });
    const before = fake.requests.length;
    const body = await harness.generate(tenant, 'embed', { text: 'slow down' });
    expect(body.job.status).toBe('success');
    const calls = fake.requests.slice(before).filter((r) => r.path === '/v1/embeddings');
    expect(calls).toHaveLength(2);
  });

  it.each([
    ['http-4xx', 'the openai backend gpt refused POST /images/generations (HTTP 400: Your request was rejected as a result of our safety system. [content_policy_violation])'],
    ['http-5xx', 'txt2img failed after 2 attempts: the openai backend gpt failed (POST /images/generations: HTTP 500: The server had an error while processing your request. Sorry about that! [server_error])'],
    ['malformed', 'the openai backend gpt answered POST /images/generations with an invalid body: expected JSON'],
    ['down', 'txt2img failed after 2 attempts: the openai backend gpt could not be reached'],
    ['never-answers', 'txt2img failed after 2 attempts: the openai backend gpt did not answer POST /images/generations within 2000 ms'],
  ] as const)('a server %s fails the job with a readable reason and refunds its units', async (mode, reason) => {
    fake.fail(mode);
    const before = await usage();
    const body = await harness.generate(tenant, 'txt2img', { modelId: 'sd15', prompt: 'x' });
    expect(await usage()).toBe(before + (body.creativeUnitsCost as number));
    const done = await harness.finalJob(tenant, body.job.jobId);
    expect(done.status).toBe('failure');
    expect(done.metadata.output.errorMessage).toBe(reason);
    await waitFor(async () => (await usage()) === before, { what: 'the refund' });
  });
});
