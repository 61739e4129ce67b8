import { WebhookReceiver, type Tenant } from '@genasset/testing';
import { paint, startInferenceHarness, type InferenceHarness } from './support/inference-harness';

jest.setTimeout(180_000);

const cosine = (a: number[], b: number[]) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  a.forEach((v, i) => {
    dot += v * b[i];
    na += v * v;
    nb += b[i] * b[i];
  });
  return dot / Math.sqrt(na * nb);
};
const noise = (x: number, y: number, amp: number) =>
  ((((x * 73856093) ^ (y * 19349663)) >>> 0) % (2 * amp + 1)) - amp;
const clamp = (v: number) => Math.max(0, Math.min(255, v));

// Text modes through the public routes, run by the worker's text engine (preview where a model is
// needed): the route answers with the result, the job carries it in its output, and image assets
// carry a stored embedding that GET /v1/assets/{id}?withEmbedding=true returns.
describe('inference-worker: text modes and asset embeddings', () => {
  let harness: InferenceHarness;
  let tenant: Tenant;
  let red: string;
  let redAgain: string;
  let blue: string;

  beforeAll(async () => {
    // The routes wait for their job's result, as upstream answers with it.
    harness = await startInferenceHarness({ env: { GENERATION_RESULT_WAIT: '60s' } });
    tenant = await harness.tenant();
    const disc = (inside: number[], outside: number[], amp: number) =>
      paint(96, 64, (x, y) =>
        ((x - 48) ** 2 + (y - 32) ** 2 < 500 ? inside : outside).map((v) => clamp(v + noise(x, y, amp))),
      );
    red = await harness.upload(tenant, await disc([220, 40, 40], [120, 20, 25], 8), 'red.png');
    redAgain = await harness.upload(tenant, await disc([200, 30, 50], [100, 15, 20], 14), 'red-again.png');
    blue = await harness.upload(tenant, await disc([40, 60, 220], [20, 25, 110], 8), 'blue.png');
  });
  afterAll(async () => {
    await harness?.close();
  });

  const embeddingOf = async (assetId: string, withEmbedding = true) => {
    const res = await harness.request('GET', `/v1/assets/${assetId}?withEmbedding=${withEmbedding}`, {
      auth: tenant.auth.projectMember,
    });
    expect(res.status).toBe(200);
    return res.body.asset.embedding as number[] | undefined;
  };

  it('caption: the route answers with captions measured from each image; the job output holds them', async () => {
    const body = await harness.generate(tenant, 'caption', {
      images: [
        red,
        `data:image/png;base64,${(await paint(40, 120, () => [30, 60, 200])).toString('base64')}`,
      ],
    });
    expect(body.job.status).toBe('success');
    expect(body.captions).toHaveLength(2);
    expect(body.captions[0]).toMatch(/^a (dark|mid-toned), \S+ landscape image in .*red/);
    expect(body.captions[1]).toMatch(/portrait image in blue; smooth/);
    const job = await harness.finalJob(tenant, body.job.jobId);
    expect(job.metadata.output).toMatchObject({ captions: body.captions, engine: 'text' });
    expect(job.metadata.assetIds ?? []).toEqual([]);
  });

  it('describe-style: palette, tone and contrast of the reference images', async () => {
    const body = await harness.generate(tenant, 'describe-style', { images: [red, redAgain] });
    expect(body.description).toMatch(/^Palette: .*red #[0-9a-f]{6} \(\d+ %\).*Across the 2 images/);
    expect(body.synthesis).toMatch(/look in .*red/);
    expect(body.job.metadata.output.engine).toBe('text');
  });

  it('embed: a 1024-number character n-gram vector; near-identical prompts score high', async () => {
    const [a, b, c] = await Promise.all(
      ['a red fox in a snowy forest', 'a red fox in the snowy forest', 'isometric neon city at night'].map(
        (text) => harness.generate(tenant, 'embed', { text }),
      ),
    );
    expect(a.embedding).toHaveLength(1024);
    expect(a.job.metadata.output).toMatchObject({ engine: 'text' });
    expect(cosine(a.embedding, b.embedding)).toBeGreaterThan(0.8);
    expect(cosine(a.embedding, c.embedding)).toBeLessThan(0.3);
  });

  it('prompt: structured and completion by the text engine; inventive by preview; translate by preview', async () => {
    const structured = await harness.generate(tenant, 'prompt', {
      mode: 'structured',
      prompt: 'a fox in the snow, watercolour, golden hour lighting',
      numResults: 2,
    });
    expect(structured).toMatchObject({ mode: 'structured', job: { status: 'success' } });
    expect(structured.prompts[0]).toBe(
      'Subject: a fox in the snow. Style: watercolour. Lighting: golden hour lighting.',
    );
    expect(structured.prompts[1]).toMatch(
      /^Subject: a fox in the snow\. Style: watercolour\. Lighting: golden hour lighting\. Composition: /,
    );
    const completion = await harness.generate(tenant, 'prompt', {
      mode: 'completion',
      prompt: 'a lighthouse',
    });
    expect(completion.prompts[0]).toMatch(/^a lighthouse, .+, .+/);

    const inventive = await harness.generate(tenant, 'prompt', { mode: 'inventive', numResults: 2 });
    expect(inventive.prompts).toHaveLength(2);
    expect(inventive.prompts[0]).toMatch(/^\[preview\] /);
    expect(inventive.job.metadata.output.engine).toBe('preview');

    const translated = await harness.generate(tenant, 'translate', { prompt: 'un renard dans la neige' });
    expect(translated).toMatchObject({ translation: 'un renard dans la neige', detectedLanguage: 'und' });
    expect(translated.job.metadata.output.engine).toBe('preview');
  });

  it('withEmbedding: uploads carry a stored image embedding; similar pictures are close', async () => {
    expect(await embeddingOf(red, false)).toBeUndefined();
    const [r, r2, b] = await Promise.all([red, redAgain, blue].map((id) => embeddingOf(id)));
    expect(r).toHaveLength(1024);
    expect(await embeddingOf(red)).toEqual(r);
    expect(cosine(r!, r2!)).toBeGreaterThan(cosine(r!, b!) + 0.2);
  });

  it('withEmbedding: generation outputs get one, detection maps none; a copy gets the same vector on first request', async () => {
    const upscale = await harness.generate(tenant, 'upscale', { image: red, scalingFactor: 2 });
    const detect = await harness.generate(tenant, 'detect', { image: red, modality: 'canny' });
    const jobs = await Promise.all([upscale, detect].map((b) => harness.finalJob(tenant, b.job.jobId)));
    expect(jobs.map((j) => j.status)).toEqual(['success', 'success']);
    const upscaled = await embeddingOf(jobs[0].metadata.assetIds[0]);
    expect(upscaled).toHaveLength(1024);
    expect(cosine(upscaled!, (await embeddingOf(red))!)).toBeGreaterThan(0.95);
    expect(await embeddingOf(jobs[1].metadata.assetIds[0])).toBeUndefined();

    const copy = await harness.request('POST', `/v1/assets/${red}/copy`, {
      auth: tenant.auth.projectMember,
      body: {},
    });
    expect(copy.status).toBe(200);
    expect(await embeddingOf(copy.body.asset.id)).toEqual(await embeddingOf(red));
  });
});

// A production-like worker (no preview) with a model server for translate and caption: those routes
// answer with what the server said; what the text engine would hand to preview fails, saying what to set.
describe('inference-worker: text modes with an http engine and no preview', () => {
  let harness: InferenceHarness;
  let server: WebhookReceiver;
  let tenant: Tenant;

  beforeAll(async () => {
    server = await WebhookReceiver.start({
      path: '/infer',
      respondWith: (request) => {
        const { mode, input } = JSON.parse(request.rawBody.toString()) as {
          mode: string;
          input: Record<string, unknown>;
        };
        return mode === 'translate'
          ? {
              status: 200,
              body: { outputs: [], output: { translation: 'a fox in the snow', detectedLanguage: 'fr' } },
            }
          : {
              status: 200,
              body: {
                outputs: [],
                output: { captions: (input.images as string[]).map((i) => `model saw ${i.slice(0, 22)}`) },
              },
            };
      },
    });
    harness = await startInferenceHarness({
      env: {
        GENERATION_RESULT_WAIT: '60s',
        INFERENCE_ENGINES: 'translate=http,caption=http',
        INFERENCE_HTTP_URL: server.url,
        INFERENCE_PREVIEW: 'off',
      },
    });
    tenant = await harness.tenant();
  });
  afterAll(async () => {
    await harness?.close();
    await server?.close();
  });

  it('translate and caption are answered by the inference server', async () => {
    const translated = await harness.generate(tenant, 'translate', { prompt: 'un renard dans la neige' });
    expect(translated).toMatchObject({ translation: 'a fox in the snow', detectedLanguage: 'fr' });
    expect(translated.job.metadata.output.engine).toBe('http');

    const image = await harness.upload(tenant, await paint(8, 8, () => [200, 30, 30]));
    const captioned = await harness.generate(tenant, 'caption', { images: [image] });
    expect(captioned.captions).toEqual(['model saw data:image/png;base64,']);
    expect(captioned.job.metadata.output.engine).toBe('http');
  });

  it('the text engine still answers embed; an inventive prompt fails naming what to configure', async () => {
    const embedded = await harness.generate(tenant, 'embed', { text: 'hello' });
    expect(embedded.embedding).toHaveLength(1024);
    expect(embedded.job.metadata.output.engine).toBe('text');

    const inventive = await harness.generate(tenant, 'prompt', { mode: 'inventive' });
    expect(inventive.prompts).toEqual([]);
    const job = await harness.finalJob(tenant, inventive.job.jobId);
    expect(job.status).toBe('failure');
    expect(job.metadata.output).toEqual({
      errorMessage:
        'prompt mode inventive with this input needs a language model, and none is configured on this server (operators: set INFERENCE_ENGINES, e.g. prompt=http with INFERENCE_HTTP_URL)',
    });
  });
});
