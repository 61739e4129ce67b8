import { ConfigError } from '@genasset/config';
import { EngineRegistry, noEngineReason, parseEngineOverrides } from './engine-registry';
import { HttpEngine } from './http/http.engine';
import { ImageEngine } from './image/image.engine';
import { PreviewEngine } from './preview/preview.engine';
import { TextEngine } from './text/text.engine';

const http = new HttpEngine({ url: 'http://127.0.0.1:9/', timeoutMs: 1000, retries: 0, retryDelayMs: 10 });

describe('engine registry', () => {
  it('runs image modes in the image engine and model-only modes in preview when preview is on', () => {
    const registry = new EngineRegistry([new ImageEngine(), new PreviewEngine()], new Map(), true);
    expect(registry.resolve('pixelate').name).toBe('image');
    expect(registry.resolve('detect:canny').name).toBe('image');
    expect(registry.resolve('detect:depth').name).toBe('preview');
    expect(registry.resolve('txt2img').name).toBe('preview');
    expect(registry.resolve('caption').name).toBe('preview');
  });

  it('leaves model-only modes without an engine when preview is off (production)', () => {
    const registry = new EngineRegistry([new ImageEngine(), new PreviewEngine()], new Map(), false);
    expect(registry.resolve('txt2img')).toEqual({ name: 'none' });
    expect(registry.resolve('upscale').name).toBe('image');
  });

  it('applies INFERENCE_ENGINES per mode and per detect modality', () => {
    const overrides = parseEngineOverrides('txt2img=http, pixelate=none,detect:depth=http,caption=preview');
    const registry = new EngineRegistry([new ImageEngine(), new PreviewEngine(), http], overrides, false);
    expect(registry.resolve('txt2img').name).toBe('http');
    expect(registry.resolve('pixelate').name).toBe('none');
    expect(registry.resolve('detect:depth').name).toBe('http');
    expect(registry.resolve('detect:canny').name).toBe('image');
    expect(registry.resolve('caption').name).toBe('preview');
    expect(registry.resolve('img2img').name).toBe('none');
  });

  it('applies a whole-mode entry to the variants its engine runs, the rest keep their default', () => {
    const registry = new EngineRegistry(
      [new ImageEngine(), new PreviewEngine()],
      parseEngineOverrides('detect=image'),
      true,
    );
    expect(registry.resolve('detect:sketch').name).toBe('image');
    expect(registry.resolve('detect:pose').name).toBe('preview');
    const none = new EngineRegistry(
      [new ImageEngine(), new PreviewEngine()],
      parseEngineOverrides('detect=none'),
      true,
    );
    expect(none.resolve('detect:canny').name).toBe('none');
  });

  it('fails start-up on bad entries, naming the variable', () => {
    expect(() => parseEngineOverrides('txt2img')).toThrow(ConfigError);
    expect(() => parseEngineOverrides('painting=image')).toThrow(
      /INFERENCE_ENGINES: "painting" is not a generation mode/,
    );
    expect(() => parseEngineOverrides('txt2img=gpu')).toThrow(/"gpu" is not an engine/);
    expect(
      () => new EngineRegistry([new ImageEngine()], parseEngineOverrides('txt2img=image'), false),
    ).toThrow(/the image engine cannot run txt2img/);
    expect(
      () => new EngineRegistry([new ImageEngine()], parseEngineOverrides('txt2img=http'), false),
    ).toThrow(/INFERENCE_HTTP_URL/);
  });

  it('runs caption, describe-style, embed and prompt in the text engine, even without preview; translate stays a model mode', () => {
    const engines = [new ImageEngine(), new TextEngine(), new PreviewEngine(), http];
    const registry = new EngineRegistry(engines, new Map(), false);
    for (const route of ['caption', 'describe-style', 'embed', 'prompt'])
      expect(registry.resolve(route).name).toBe('text');
    expect(registry.resolve('translate')).toEqual({ name: 'none' });
    const configured = new EngineRegistry(
      engines,
      parseEngineOverrides('caption=http,translate=http,embed=preview'),
      true,
    );
    expect(configured.resolve('caption').name).toBe('http');
    expect(configured.resolve('translate').name).toBe('http');
    expect(configured.resolve('embed').name).toBe('preview');
    expect(() => new EngineRegistry(engines, parseEngineOverrides('translate=text'), true)).toThrow(
      /the text engine cannot run translate/,
    );
  });

  it('explains a missing engine in words a client can pass on', () => {
    expect(noEngineReason('txt2img')).toBe(
      'mode txt2img has no engine configured on this server (operators: set INFERENCE_ENGINES, e.g. txt2img=http with INFERENCE_HTTP_URL)',
    );
    expect(noEngineReason('detect:pose')).toMatch(/^detect modality pose has no engine configured/);
  });
});
