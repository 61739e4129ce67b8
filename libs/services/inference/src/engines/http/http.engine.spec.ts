import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EngineError } from '../engine';
import { drawPng, fakeContext, job } from '../testing/fake-context';
import { HttpEngine, HTTP_CONTRACT } from './http.engine';

type Handler = (body: Record<string, unknown>, req: IncomingMessage, res: ServerResponse) => void;

describe('http engine', () => {
  let server: Server;
  let url: string;
  let handler: Handler;
  let requests: Record<string, unknown>[];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>;
        requests.push({ ...body, headers: req.headers });
        handler(body, req, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/run`;
  });
  beforeEach(() => {
    requests = [];
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const engine = (overrides: Partial<ConstructorParameters<typeof HttpEngine>[0]> = {}) =>
    new HttpEngine({ url, token: 'tok_123', timeoutMs: 2000, retries: 2, retryDelayMs: 10, ...overrides });
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  it('posts the request with images inline and stores the files it answers', async () => {
    const png = await drawPng(4, 4, () => [9, 9, 9]);
    handler = (_body, _req, res) =>
      json(res, 200, {
        outputs: [{ data: png.toString('base64'), mimeType: 'image/png', metadata: { steps: 4 } }],
        output: { note: 'ok' },
      });
    const ctx = fakeContext({ asset_in: png });
    const result = await engine().run(
      job('img2img', { image: 'asset_in', prompt: 'p', outputAssetId: 'asset_out' }, { modelId: 'model_1' }),
      ctx,
    );
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      contract: HTTP_CONTRACT,
      jobId: 'job_test',
      mode: 'img2img',
      modelId: 'model_1',
      input: {
        image: `data:image/png;base64,${png.toString('base64')}`,
        prompt: 'p',
        outputAssetId: 'asset_out',
      },
      images: [{ field: 'image', mimeType: 'image/png', assetId: 'asset_in' }],
      headers: { authorization: 'Bearer tok_123', 'x-job-id': 'job_test' },
    });
    expect(result.outputs[0]).toMatchObject({
      assetType: 'inference-img2img',
      parentAssetId: 'asset_in',
      metadata: { steps: 4 },
    });
    expect(ctx.files[0].bytes.equals(png)).toBe(true);
    expect(result.extra).toEqual({ note: 'ok', engine: 'http' });
  });

  it('makes the outputs children of the deprecated imageId / controlImageId picture too', async () => {
    const png = await drawPng(4, 4, () => [9, 9, 9]);
    handler = (_body, _req, res) =>
      json(res, 200, { outputs: [{ data: png.toString('base64'), mimeType: 'image/png' }] });
    const ctx = fakeContext({ asset_in: png });
    const byId = await engine().run(job('img2img', { imageId: 'asset_in', prompt: 'p' }), ctx);
    expect(byId.outputs[0]).toMatchObject({ parentAssetId: 'asset_in' });
    const control = await engine().run(
      job('controlnet', { controlImageId: 'asset_in', modality: 'canny', prompt: 'p' }),
      ctx,
    );
    expect(control.outputs[0]).toMatchObject({ parentAssetId: 'asset_in' });
  });

  it('retries 5xx answers, then succeeds', async () => {
    let calls = 0;
    handler = (_body, _req, res) =>
      ++calls < 3 ? json(res, 503, { error: 'warming up' }) : json(res, 200, { output: { captions: ['c'] } });
    const result = await engine().run(job('caption', { images: [] }), fakeContext());
    expect(calls).toBe(3);
    expect(result).toEqual({ outputs: [], extra: { captions: ['c'], engine: 'http' } });
  });

  it('fails with a readable reason after the last retry', async () => {
    handler = (_body, _req, res) => json(res, 500, { error: 'CUDA out of memory' });
    const run = engine().run(job('txt2img', { prompt: 'p' }), fakeContext());
    await expect(run).rejects.toThrow(EngineError);
    await expect(engine().run(job('txt2img', { prompt: 'p' }), fakeContext())).rejects.toThrow(
      'the inference server failed (HTTP 500: CUDA out of memory) after 3 attempts',
    );
  });

  it('does not retry a refusal (4xx) and passes its message on', async () => {
    handler = (_body, _req, res) => json(res, 422, { error: { message: 'prompt too long' } });
    await expect(engine().run(job('txt2img', { prompt: 'p' }), fakeContext())).rejects.toThrow(
      'the inference server refused the request (HTTP 422): prompt too long',
    );
    expect(requests).toHaveLength(1);
  });

  it('times out', async () => {
    handler = () => undefined; // never answers
    await expect(
      engine({ timeoutMs: 100, retries: 1 }).run(job('txt2img', { prompt: 'p' }), fakeContext()),
    ).rejects.toThrow('the inference server failed (no answer within 100 ms) after 2 attempts');
  });

  it('refuses an invalid answer', async () => {
    handler = (_body, _req, res) => json(res, 200, { outputs: [{ data: '***', mimeType: 'image/png' }] });
    await expect(engine().run(job('txt2img', { prompt: 'p' }), fakeContext())).rejects.toThrow(
      /invalid body: outputs.0.data is not base64/,
    );
  });

  it('takes each output the one way of backend outputs: typed by its bytes, refused past maxOutputBytes before it is decoded', async () => {
    const png = await drawPng(4, 4, () => [9, 9, 9]);
    const mp4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(12)]);
    handler = (_body, _req, res) =>
      json(res, 200, {
        outputs: [
          // Declared JPEG, a PNG by its bytes: the bytes win.
          { data: png.toString('base64'), mimeType: 'image/jpeg' },
          { data: `data:video/mp4;base64,${mp4.toString('base64')}`, assetType: 'inference-custom' },
          // A type the sniffer does not know keeps the declared one.
          { data: Buffer.from('{"a":1}').toString('base64'), mimeType: 'application/json' },
        ],
      });
    const ctx = fakeContext();
    await engine().run(job('custom', { prompt: 'p' }), ctx);
    expect(ctx.files.map((f) => f.mimeType)).toEqual(['image/png', 'video/mp4', 'application/json']);

    handler = (_body, _req, res) => json(res, 200, { outputs: [{ data: png.toString('base64'), mimeType: 'image/png' }, { data: Buffer.alloc(2048, 1).toString('base64'), mimeType: 'image/png' }] });
    await expect(engine({ maxOutputBytes: 1024 }).run(job('txt2img', { prompt: 'p' }), fakeContext())).rejects.toThrow(
      'the inference server produced output 2 of 2048 bytes; this worker takes at most 1024 (INFERENCE_HTTP_MAX_OUTPUT_BYTES)',
    );

    handler = (_body, _req, res) => json(res, 200, { outputs: [{ data: Buffer.from('model returned a caption').toString('base64'), mimeType: 'image/png' }] });
    await expect(engine().run(job('txt2img', { prompt: 'p' }), fakeContext())).rejects.toThrow(
      'the inference server produced output 1, which is not an image (declared image/png): it is text ("model returned a caption")',
    );
  });
});
