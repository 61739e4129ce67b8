import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync } from 'class-validator';
import { ControlnetBody, InpaintIpAdapterBody } from './inference-modes.dto';
import { DetectBody, PatchBody } from './image-tools.dto';
import { SkyboxUpscale360Body, UpscaleBody } from './upscale-skybox.dto';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';
const fieldsOf = (type: new () => object) =>
  [
    ...new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(type, '', true, false)
        .map((m) => m.propertyName),
    ),
  ].sort();
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

  it('refuses a list where upstream has one object (patch, position, crop)', () => {
    const errors = errorsOf(PatchBody, {
      image: 'asset_1',
      patch: [{ mode: 'override', image: PNG }],
      position: [{ x: 1, y: 2 }],
      crop: [],
    });
    expect(Object.keys(errors).sort()).toEqual(['crop', 'patch', 'position']);
    expect(
      errorsOf(PatchBody, {
        image: 'asset_1',
        patch: { mode: 'erase', image: PNG },
        position: { x: 1, y: 2 },
      }),
    ).toEqual({});
  });

  it('takes any CSS colour for backgroundColor and refuses what names no colour', () => {
    for (const colour of [
      '#fff',
      '#FFFFFF80',
      'Red',
      'rebeccapurple',
      'transparent',
      'rgba(10, 20, 30, 0.5)',
    ]) {
      expect(errorsOf(PatchBody, { image: 'asset_1', backgroundColor: colour })).toEqual({});
    }
    for (const colour of ['notacolour', '#ggg', '#12345', 'rgb(1, 2)', '', 'red blue']) {
      expect(Object.keys(errorsOf(PatchBody, { image: 'asset_1', backgroundColor: colour }))).toEqual([
        'backgroundColor',
      ]);
    }
    expect(Object.keys(errorsOf(PatchBody, { image: 'asset_1', crop: { backgroundColor: 'bleu' } }))).toEqual(
      ['crop'],
    );
  });

  it('upscale and skybox-upscale-360 take exactly their upstream fields', () => {
    // Upstream PostUpscaleInferencesRequest and PostSkyboxUpscale360InferencesRequest, field for field.
    expect(fieldsOf(UpscaleBody)).toEqual(
      'creativity creativityDecay detailsLevel fractality image imageFidelity imageType negativePrompt overrideEmbeddings preset prompt promptFidelity refinementSteps scalingFactor seed style styleImages styleImagesFidelity targetWidth tileStyle'.split(
        ' ',
      ),
    );
    expect(fieldsOf(SkyboxUpscale360Body)).toEqual(
      'colorCorrection detailsLevel image negativePrompt overrideEmbeddings prompt promptFidelity scalingFactor seed sharpen styleFidelity styleImages targetWidth'.split(
        ' ',
      ),
    );
  });

  it('names the style images’ influence as upstream does on each path, 0–100', () => {
    expect(errorsOf(UpscaleBody, { image: PNG, styleImagesFidelity: 60 })).toEqual({});
    expect(Object.keys(errorsOf(UpscaleBody, { image: PNG, styleFidelity: 60 }))).toEqual(['styleFidelity']);
    expect(Object.keys(errorsOf(UpscaleBody, { image: PNG, styleImagesFidelity: 101 }))).toEqual([
      'styleImagesFidelity',
    ]);
    expect(errorsOf(SkyboxUpscale360Body, { image: PNG, styleFidelity: 60 })).toEqual({});
    expect(Object.keys(errorsOf(SkyboxUpscale360Body, { image: PNG, styleImagesFidelity: 60 }))).toEqual([
      'styleImagesFidelity',
    ]);
  });

  it('bounds neither the Canny thresholds nor the grayscale factor, as upstream', () => {
    const detect = { image: 'asset_1', modality: 'canny' };
    expect(errorsOf(DetectBody, { ...detect, lowThreshold: 400, highThreshold: 1200, factor: 150 })).toEqual(
      {},
    );
    expect(errorsOf(DetectBody, { ...detect, lowThreshold: -1, factor: -20 })).toEqual({});
    expect(Object.keys(errorsOf(DetectBody, { ...detect, highThreshold: '300' }))).toEqual(['highThreshold']);
  });
});
