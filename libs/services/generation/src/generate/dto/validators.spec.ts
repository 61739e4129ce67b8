import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { ControlnetBody, InpaintIpAdapterBody } from './inference-modes.dto';
import { PatchBody } from './image-tools.dto';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';
const errorsOf = (type: new () => object, body: object) =>
  Object.fromEntries(
    validateSync(plainToInstance(type, body), { whitelist: true, forbidNonWhitelisted: true }).map((e) => [
      e.property,
      e,
    ]),
  );

describe('generate body validation', () => {
  const base = { modelId: 'model_1', prompt: 'x' };

  it.each(['canny', 'depth:0.5,pose:1.0', 'canny:0.5,depth:0.5,lines:0.3', 'character:0.5', 'illusion:1'])(
    'accepts modality %s',
    (modality) => {
      expect(errorsOf(ControlnetBody, { ...base, modality })).toEqual({});
    },
  );

  it.each(['', 'x-ray', 'canny:0', 'canny:1.5', 'canny,depth,pose,seg', 'canny;depth'])(
    'refuses modality %j',
    (modality) => {
      expect(Object.keys(errorsOf(ControlnetBody, { ...base, modality }))).toEqual(['modality']);
    },
  );

  it.each([
    ['42', true],
    [42, true],
    ['-1', false],
    [2147483648, false],
    [1.5, false],
    ['abc', false],
  ])('seed %j valid: %s', (seed, ok) => {
    expect('seed' in errorsOf(ControlnetBody, { ...base, modality: 'canny', seed })).toBe(!ok);
  });

  it('checks what each image field accepts, items of lists included', () => {
    const errors = errorsOf(InpaintIpAdapterBody, {
      ...base,
      image: PNG,
      mask: 'asset_1',
      maskId: PNG,
      ipAdapterImages: [PNG, 'asset_2'],
    });
    expect(Object.keys(errors).sort()).toEqual(['ipAdapterImages', 'mask', 'maskId']);
    expect(Object.values(errors.ipAdapterImages.constraints!)[0]).toContain(
      'items must be an image data URL',
    );
  });

  it('validates nested bodies and refuses unknown fields', () => {
    const errors = errorsOf(PatchBody, {
      image: 'asset_1',
      patch: { mode: 'override', image: 'http://x' },
      extra: 1,
    });
    expect(Object.keys(errors).sort()).toEqual(['extra', 'patch']);
    expect(errors.patch.children![0].property).toBe('image');
  });
});
