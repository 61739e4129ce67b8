import { creativeUnitsCost } from '@genasset/contracts';
import { pricingRequest } from './generation-pricing';

const image = (width: number, height: number) => [{ path: 'image', width, height }];

describe('pricingRequest', () => {
  it('prices inference by the requested size and samples', () => {
    expect(pricingRequest('txt2img', { width: 512, height: 768, numSamples: 2 }, [])).toEqual({
      mode: 'txt2img',
      width: 512,
      height: 768,
      numSamples: 2,
    });
  });

  it('prices inference by the size it produces: a missing side is the body’s default 512', () => {
    const size = (
      body: Record<string, unknown>,
      sizes: { path: string; width: number; height: number }[] = [],
    ) => {
      const { width, height } = pricingRequest('txt2img', { prompt: 'x', ...body }, sizes);
      return { width, height };
    };
    expect(size({})).toEqual({ width: 512, height: 512 });
    expect(size({ width: 768 })).toEqual({ width: 768, height: 512 });
    expect(size({ height: 768 })).toEqual({ width: 512, height: 768 });
    // txt2img with no size costs the 512 × 512 price, what it makes (docs/credits.md table: 3)
    expect(creativeUnitsCost(pricingRequest('txt2img', { prompt: 'x' }, [])).creativeUnitsCost).toBe(3);
    // img2img-like modes without a size draw over the input picture: its size
    expect(pricingRequest('img2img', {}, image(640, 480))).toMatchObject({ width: 640, height: 480 });
    expect(pricingRequest('img2img', {}, [{ path: 'imageId', width: 320, height: 200 }])).toMatchObject({
      width: 320,
      height: 200,
    });
    expect(pricingRequest('img2img', { width: 1024 }, image(640, 480))).toMatchObject({
      width: 1024,
      height: 512,
    });
    // custom models have no documented default: unchanged (the cost function's own default)
    expect(pricingRequest('custom', { width: 768 }, [])).toMatchObject({ width: 768, height: undefined });
  });

  it('prices an upscale by its output size: input size (when known) × factor, or targetWidth', () => {
    expect(pricingRequest('upscale', { scalingFactor: 4 }, image(100, 50))).toMatchObject({
      width: 400,
      height: 200,
    });
    expect(pricingRequest('upscale', { targetWidth: 2000 }, image(1000, 500))).toMatchObject({
      width: 2000,
      height: 1000,
    });
    expect(pricingRequest('upscale', {}, [])).toMatchObject({ width: 2048, height: 2048 });
  });

  it('prices an image tool by its input image, texture’s being its `texture` field', () => {
    expect(pricingRequest('detect', {}, image(128, 96))).toEqual({ mode: 'detect', width: 128, height: 96 });
    expect(pricingRequest('texture', {}, [{ path: 'texture', width: 512, height: 256 }])).toEqual({
      mode: 'texture',
      width: 512,
      height: 256,
    });
    // Other inputs (a mask, style images) do not price the request.
    expect(pricingRequest('detect', {}, [{ path: 'mask', width: 4096, height: 4096 }])).toEqual({
      mode: 'detect',
      width: undefined,
      height: undefined,
    });
  });

  it('prices a skybox as an equirectangular image, captions per image, prompts per result', () => {
    expect(pricingRequest('skybox-base-360', { width: 2048, numOutputs: 3 }, [])).toMatchObject({
      width: 2048,
      height: 1024,
      numSamples: 3,
    });
    // No width: the size the engines render, 2048 × 1024 (docs/credits.md table: 10), not 1024².
    expect(pricingRequest('skybox-base-360', { prompt: 'x' }, [])).toMatchObject({
      width: 2048,
      height: 1024,
    });
    expect(creativeUnitsCost(pricingRequest('skybox-base-360', { prompt: 'x' }, [])).creativeUnitsCost).toBe(
      10,
    );
    expect(pricingRequest('caption', { images: ['a', 'b'], assetIds: ['c'] }, [])).toEqual({
      mode: 'caption',
      numSamples: 3,
    });
    expect(pricingRequest('prompt', { numResults: 4 }, [])).toEqual({ mode: 'prompt', numSamples: 4 });
  });

  it('never passes a size the price function refuses (a 0 target is "not given")', () => {
    const request = pricingRequest('reframe', { targetWidth: 0, targetHeight: 0 }, []);
    expect(() => creativeUnitsCost(request)).not.toThrow();
  });
});
