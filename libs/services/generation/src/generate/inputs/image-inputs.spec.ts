import { plainToInstance } from 'class-transformer';
import { PatchBody } from '../dto/image-tools.dto';
import { Img2ImgIpAdapterBody } from '../dto/inference-modes.dto';
import { customInputsOf, imageInputsOf, setAtPath } from './image-inputs';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';

describe('image inputs', () => {
  it('finds every image field of a body, list items and nested bodies included', () => {
    const body = plainToInstance(Img2ImgIpAdapterBody, {
      modelId: 'm',
      prompt: 'p',
      image: 'asset_a',
      ipAdapterImages: [PNG, PNG],
    });
    expect(
      imageInputsOf(body)
        .map((i) => [i.path, i.kind])
        .sort(),
    ).toEqual([
      ['image', 'asset'],
      ['ipAdapterImages.0', 'data-url'],
      ['ipAdapterImages.1', 'data-url'],
    ]);
    const patch = plainToInstance(PatchBody, { image: PNG, patch: { mode: 'erase', image: 'asset_b' } });
    expect(imageInputsOf(patch).map((i) => i.path)).toEqual(['image', 'patch.image']);
  });

  it('finds asset ids and data URLs of any type in a custom-model body', () => {
    const inputs = customInputsOf({
      prompt: 'asset of mine',
      image: 'asset_a',
      clips: ['data:audio/wav;base64,AAAA', 'x'],
      n: 2,
    });
    expect(inputs.map((i) => [i.path, i.kind])).toEqual([
      ['image', 'asset'],
      ['clips.0', 'data-url'],
    ]);
  });

  it('replaces a value at a dotted path', () => {
    const input = { image: 'data:…', list: ['a', 'data:…'], patch: { image: 'data:…' } };
    setAtPath(input, 'image', 'k1');
    setAtPath(input, 'list.1', 'k2');
    setAtPath(input, 'patch.image', 'k3');
    expect(input).toEqual({ image: 'k1', list: ['a', 'k2'], patch: { image: 'k3' } });
  });
});
