import sharp from 'sharp';
import { FakeOpenai } from '@genasset/testing';
import type { OpenaiBackendConfig } from '@genasset/config';
import { TransientError } from '../../work/transient-error';
import { EngineError } from '../engine';
import { fakeContext, job } from '../testing/fake-context';
import { sizeFor } from './openai-images';
import { OpenaiEngine } from './openai.engine';

const config = (url: string, over: Partial<OpenaiBackendConfig> = {}): OpenaiBackendConfig => ({
  name: 'gpt',
  type: 'openai',
  url,
  concurrency: 1,
  timeouts: { request: 1_000, job: 20_000 },
  maxOutputBytes: 1024 * 1024,
  routes: ['txt2img', 'inpaint', 'generative-fill', 'prompt-editing', 'embed', 'caption', 'describe-style', 'prompt', 'translate'],
  models: { image: 'dall-e-2', chat: 'gpt-4o-mini', embedding: 'text-embedding-3-small' },
  imageResponseFormat: 'b64_json',
  maxTokens: 300,
  rateLimit: { retries: 2, maxWait: 5_000 },
  headers: { authorization: 'Bearer sk-test' },
  ...over,
});

const png = (w: number, h: number, colour: string) =>
  sharp({ create: { width: w, height: h, channels: 3, background: colour } }).png().toBuffer();

describe('OpenaiEngine against a fake OpenAI-compatible server', () => {
  let fake: FakeOpenai;
  beforeAll(async () => {
    fake = await FakeOpenai.start({ apiKey: 'sk-test', models: ['dall-e-2', 'gpt-4o-mini', 'text-embedding-3-small'] });
  });
  afterEach(() => {
    fake.fail(undefined);
    fake.requests.length = 0;
  });
  afterAll(() => fake.close());

  it('txt2img: POST /images/generations with the key, the outputs are the server\'s bytes', async () => {
    const engine = new OpenaiEngine(config(fake.url, { negativePromptSeparator: '|' }));
    const ctx = fakeContext();
    const result = await engine.run(job('txt2img', { prompt: 'a fox', negativePrompt: 'blur', numSamples: 2, width: 96, height: 64 }), ctx);
    expect(fake.requests[0]).toMatchObject({
      path: '/v1/images/generations',
      authorization: 'Bearer sk-test',
      body: { model: 'dall-e-2', prompt: 'a fox|blur', n: 2, size: '96x64', response_format: 'b64_json' },
    });
    expect(result.extra).toEqual({ engine: 'openai', backend: 'gpt' });
    expect(ctx.files.map((f) => f.bytes)).toEqual(fake.images.slice(-2));
    expect(ctx.files[0]).toMatchObject({ assetType: 'inference-txt2img', metadata: { backend: 'gpt', backendModel: 'dall-e-2', revisedPrompt: 'a fox|blur (revised)' } });
  });

  it('txt2img with url answers: the file is fetched, and refused past maxOutputBytes', async () => {
    const ctx = fakeContext();
    await new OpenaiEngine(config(fake.url, { imageResponseFormat: 'url' })).run(job('txt2img', { prompt: 'x' }), ctx);
    expect(ctx.files[0].bytes.equals(fake.images[fake.images.length - 1])).toBe(true);
    const small = new OpenaiEngine(config(fake.url, { imageResponseFormat: 'url', maxOutputBytes: 10 }));
    await expect(small.run(job('txt2img', { prompt: 'y' }), fakeContext())).rejects.toThrow(/produced image 1 of \d+ bytes; this worker takes at most 10/);
  });

  it('inpaint: multipart /images/edits with the mask turned transparent where it was white', async () => {
    const image = await png(8, 8, '#336699');
    // Left half white (edit), right half black (keep).
    const mask = await sharp(Buffer.alloc(8 * 8 * 3).map((_, i) => (Math.floor(i / 3) % 8 < 4 ? 255 : 0)), { raw: { width: 8, height: 8, channels: 3 } }).png().toBuffer();
    const ctx = fakeContext({ asset_img: image, asset_mask: mask });
    await new OpenaiEngine(config(fake.url)).run(job('inpaint', { image: 'asset_img', maskId: 'asset_mask', prompt: 'a hat' }), ctx);
    const body = fake.requests[0].body as Record<string, { bytes: Buffer } | string>;
    expect(fake.requests[0].path).toBe('/v1/images/edits');
    expect(body).toMatchObject({ prompt: 'a hat', model: 'dall-e-2', n: '1', size: '8x8' });
    const alpha = await sharp((body.mask as { bytes: Buffer }).bytes).extractChannel(3).raw().toBuffer();
    expect([alpha[0], alpha[7]]).toEqual([0, 255]);
    expect(ctx.files[0]).toMatchObject({ assetType: 'inference-inpaint', parentAssetId: 'asset_img' });
  });

  it('embed, caption, describe-style, prompt and translate answer the same result fields as the text engine', async () => {
    const engine = new OpenaiEngine(config(fake.url));
    const ctx = fakeContext({ asset_a: await png(4, 4, '#ff0000'), asset_b: await png(4, 4, '#00ff00') });
    const embed = await engine.run(job('embed', { text: 'hello' }), ctx);
    expect(embed.extra?.embedding).toHaveLength(8);
    expect(fake.requests.at(-1)!.body).toMatchObject({ model: 'text-embedding-3-small', input: 'hello' });
    const caption = await engine.run(job('caption', { images: ['asset_a', 'asset_b'], temperature: 0.2 }), ctx);
    expect(caption.extra).toMatchObject({ captions: ['A fake caption of 1 image(s).', 'A fake caption of 1 image(s).'], engine: 'openai' });
    const chat = fake.requests.at(-1)!.body as { messages: { content: { type: string; image_url?: { url: string } }[] }[]; temperature: number };
    expect(chat.temperature).toBe(0.2);
    expect(chat.messages[1].content[0].image_url!.url).toMatch(/^data:image\/jpeg;base64,/);
    const style = await engine.run(job('describe-style', { images: ['asset_a', 'asset_b'] }), ctx);
    expect(style.extra).toMatchObject({ description: 'A fake style of 2 image(s).', synthesis: 'fake style' });
    const prompts = await engine.run(job('prompt', { mode: 'structured', prompt: 'a fox', numResults: 2, seed: 5 }), ctx);
    expect(prompts.extra).toMatchObject({ prompts: ['fake prompt 1 about a fox', 'fake prompt 2 about a fox'], seed: 5 });
    const translation = await engine.run(job('translate', { prompt: 'un renard' }), ctx);
    expect(translation.extra).toMatchObject({ translation: 'English for: un renard', detectedLanguage: 'fr' });
  });

  it('waits out a 429 as retry-after asks, then answers', async () => {
    fake.fail('rate-limited', { times: 1, retryAfterS: 1 });
    const started = Date.now();
    const result = await new OpenaiEngine(config(fake.url)).run(job('embed', { text: 'x' }), fakeContext());
    expect(result.extra?.embedding).toHaveLength(8);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(fake.requests.filter((r) => r.path === '/v1/embeddings')).toHaveLength(2);
  });

  it('a 429 asking longer than maxWait, or beyond the retries, is a transient failure (the queue retries the job later)', async () => {
    fake.fail('rate-limited', { times: 1, retryAfterS: 60 });
    await expect(new OpenaiEngine(config(fake.url)).run(job('embed', { text: 'x' }), fakeContext())).rejects.toThrow(
      new TransientError('the openai backend gpt is rate limited (POST /embeddings: HTTP 429: Rate limit reached for requests [rate_limit_exceeded])'),
    );
    expect(fake.requests).toHaveLength(1);
  });

  it.each([
    ['http-4xx', EngineError, 'the openai backend gpt refused POST /images/generations (HTTP 400: Your request was rejected as a result of our safety system. [content_policy_violation])'],
    ['http-5xx', TransientError, 'the openai backend gpt failed (POST /images/generations: HTTP 500: The server had an error while processing your request. Sorry about that! [server_error])'],
    ['malformed', EngineError, 'the openai backend gpt answered POST /images/generations with an invalid body: expected JSON'],
    ['down', TransientError, 'the openai backend gpt could not be reached'],
    ['never-answers', TransientError, 'the openai backend gpt did not answer POST /images/generations within 1000 ms'],
  ] as const)('%s: a readable failure', async (mode, type, message) => {
    fake.fail(mode);
    const error = await new OpenaiEngine(config(fake.url)).run(job('txt2img', { prompt: 'x' }), fakeContext()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(type);
    expect(error instanceof TransientError ? error.reason : (error as Error).message).toBe(message);
  });

  it('a wrong key is refused with the server\'s words; readiness lists models it does not serve', async () => {
    const wrong = new OpenaiEngine(config(fake.url, { headers: { authorization: 'Bearer nope' } }));
    await expect(wrong.run(job('embed', { text: 'x' }), fakeContext())).rejects.toThrow('the openai backend gpt refused POST /embeddings (HTTP 401: Incorrect API key provided. [invalid_api_key])');
    expect(await new OpenaiEngine(config(fake.url)).problems()).toEqual([]);
    expect(await new OpenaiEngine(config(fake.url, { models: { image: 'dall-e-3' } })).problems()).toEqual(['models not served: dall-e-3']);
  });

  it('sizes: the configured size closest in aspect, else width×height', () => {
    const sizes = ['1024x1024', '1792x1024', '1024x1792'];
    expect(sizeFor({ sizes }, 1600, 900)).toBe('1792x1024');
    expect(sizeFor({ sizes }, 500, 510)).toBe('1024x1024');
    expect(sizeFor({ sizes: undefined }, 300, 200)).toBe('300x200');
    expect(sizeFor({ sizes: undefined }, undefined, 200)).toBeUndefined();
  });
});
