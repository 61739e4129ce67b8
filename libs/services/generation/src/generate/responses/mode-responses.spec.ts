import { MODE_REGISTRY } from '../modes/mode-registry';
import { inferenceEcho } from './mode-responses';

const mode = (name: string) => MODE_REGISTRY.find((m) => m.name === name)!;
const ASSET = 'asset_01JD6Z3Q9V8K2M4N6P8R0T2V4X';
const MASK = 'asset_01JD6Z3Q9V8K2M4N6P8R0T2V4Y';
const STORED = 'generation-inputs/proj_1/01JD/mask.png';

describe('inferenceEcho', () => {
  it('carries both fields of each image pair: an asset id sent as the image fills its id', () => {
    const echo = inferenceEcho(mode('inpaint'), { generationMode: 'inpaint', modelId: 'm', prompt: 'p', image: ASSET, maskId: MASK });
    expect(echo).toEqual({ prompt: 'p', image: ASSET, imageId: ASSET, mask: MASK, maskId: MASK, type: 'inpaint' });
  });

  it('gives an empty id for an image sent as a data URL (stored for the job, not an asset)', () => {
    const echo = inferenceEcho(mode('controlnet-inpaint'), {
      prompt: 'p',
      modality: 'canny',
      image: ASSET,
      mask: STORED,
      controlImage: 'generation-inputs/proj_1/01JD/controlImage.png',
    });
    expect(echo).toMatchObject({
      image: ASSET,
      imageId: ASSET,
      mask: STORED,
      maskId: '',
      controlImage: 'generation-inputs/proj_1/01JD/controlImage.png',
      controlImageId: '',
    });
  });

  it('echoes the control image of plain ControlNet modes as image/imageId, as upstream does', () => {
    for (const name of ['controlnet', 'controlnet-ip-adapter', 'controlnet-texture']) {
      expect(inferenceEcho(mode(name), { prompt: 'p', modality: 'pose', controlImageId: ASSET })).toMatchObject({
        image: ASSET,
        imageId: ASSET,
        controlImage: ASSET,
        controlImageId: ASSET,
      });
    }
  });

  it('adds no image field to a mode that takes no image', () => {
    expect(inferenceEcho(mode('txt2img'), { prompt: 'p', width: 512 })).toEqual({ prompt: 'p', width: 512, type: 'txt2img' });
  });
});
