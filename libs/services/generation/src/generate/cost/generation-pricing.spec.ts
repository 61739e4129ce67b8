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
