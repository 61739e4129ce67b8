// Request bodies for every generate mode, shared by the generation tests and the upstream contract test.

/** Inputs an example body may use: an asset of the caller's project and an image data URL. */
export interface ExampleInputs {
  asset: string;
  dataUrl: string;
}

export interface ModeExample {
  valid: (i: ExampleInputs) => Record<string, unknown>;
  /** An invalid body and the field the 400 must name. */
  invalid: (i: ExampleInputs) => Record<string, unknown>;
  field: string;
}

const m = { modelId: 'flux.1-dev', prompt: 'a lighthouse at dusk' };

/** One valid and one invalid request for every POST /v1/generate/{mode} of the registry. */
export const MODE_EXAMPLES: Record<string, ModeExample> = {
  txt2img: {
    valid: () => ({ ...m, width: 512, height: 768, numSamples: 2, seed: '42' }),
    invalid: () => ({ ...m, width: 500 }),
    field: 'width',
  },
  'txt2img-ip-adapter': {
    valid: (i) => ({ ...m, ipAdapterImages: [i.dataUrl], ipAdapterType: 'character' }),
    invalid: () => ({ ...m }),
    field: 'ipAdapterImages',
  },
  'txt2img-texture': { valid: () => ({ ...m }), invalid: () => ({ prompt: 'tiles' }), field: 'modelId' },
  img2img: {
    valid: (i) => ({ ...m, image: i.asset, strength: 0.5 }),
    invalid: (i) => ({ ...m, image: i.asset, strength: 2 }),
    field: 'strength',
  },
  'img2img-ip-adapter': {
    valid: (i) => ({ ...m, image: i.dataUrl, ipAdapterImageIds: [i.asset] }),
    invalid: (i) => ({ ...m, image: i.asset, ipAdapterImageIds: [i.asset], ipAdapterType: 'portrait' }),
    field: 'ipAdapterType',
  },
  'img2img-texture': { valid: (i) => ({ ...m, image: i.asset }), invalid: () => ({ ...m }), field: 'image' },
  inpaint: {
    valid: (i) => ({ ...m, image: i.asset, mask: i.dataUrl }),
    invalid: (i) => ({ ...m, image: i.asset, mask: i.asset }),
    field: 'mask',
  },
  'inpaint-ip-adapter': {
    valid: (i) => ({ ...m, image: i.asset, maskId: i.asset, ipAdapterImages: [i.dataUrl] }),
    invalid: (i) => ({ ...m, image: i.asset, ipAdapterImages: [i.dataUrl] }),
    field: 'mask',
  },
  controlnet: {
    valid: (i) => ({ ...m, modality: 'depth:0.5,pose:1.0', image: i.asset }),
    invalid: (i) => ({ ...m, modality: 'x-ray', image: i.asset }),
    field: 'modality',
  },
  'controlnet-img2img': {
    valid: (i) => ({ ...m, modality: 'canny', image: i.asset, controlImage: i.dataUrl }),
    invalid: (i) => ({ ...m, modality: 'canny', image: i.asset }),
    field: 'controlImage',
  },
  'controlnet-inpaint': {
    valid: (i) => ({ ...m, modality: 'canny', image: i.asset, mask: i.dataUrl, controlImageId: i.asset }),
    invalid: (i) => ({ ...m, image: i.asset, mask: i.dataUrl, controlImageId: i.asset }),
    field: 'modality',
  },
  'controlnet-inpaint-ip-adapter': {
    valid: (i) => ({
      ...m,
      image: i.asset,
      mask: i.dataUrl,
      controlImage: i.dataUrl,
      ipAdapterImageId: i.asset,
    }),
    invalid: (i) => ({
      ...m,
      image: i.asset,
      mask: i.dataUrl,
      controlImage: i.dataUrl,
      ipAdapterImageId: i.asset,
      colour: 'red',
    }),
    field: 'colour',
  },
  'controlnet-ip-adapter': {
    valid: (i) => ({ ...m, modality: 'pose', controlImage: i.dataUrl, ipAdapterImages: [i.dataUrl] }),
    invalid: (i) => ({
      ...m,
      modality: 'pose',
      controlImage: i.dataUrl,
      ipAdapterImages: [i.dataUrl],
      ipAdapterScales: [2],
    }),
    field: 'ipAdapterScales',
  },
  'controlnet-texture': {
    valid: (i) => ({ ...m, modality: 'tile', image: i.dataUrl }),
    invalid: (i) => ({ ...m, modality: 'tile', image: i.dataUrl, numSamples: 0 }),
    field: 'numSamples',
  },
  caption: {
    valid: (i) => ({ images: [i.asset, i.dataUrl], detailsLevel: 'action' }),
    invalid: () => ({ images: [] }),
    field: 'images',
  },
  'describe-style': {
    valid: (i) => ({ images: [i.dataUrl], temperature: 0.5 }),
    invalid: () => ({}),
    field: 'images',
  },
  detect: {
    valid: (i) => ({ image: i.asset, modality: 'canny', lowThreshold: 100 }),
    invalid: (i) => ({ image: i.asset, modality: 'edges' }),
    field: 'modality',
  },
  embed: { valid: () => ({ text: 'a red bicycle' }), invalid: () => ({ text: '' }), field: 'text' },
  'generative-fill': {
    valid: (i) => ({ image: i.asset, mask: i.dataUrl, prompt: 'grass' }),
    invalid: (i) => ({ image: i.asset }),
    field: 'mask',
  },
  patch: {
    valid: (i) => ({
      image: i.asset,
      patch: { mode: 'override', image: i.dataUrl },
      position: { x: 4, y: 8 },
      format: 'jpeg',
    }),
    invalid: (i) => ({ image: i.asset, patch: { mode: 'blend', image: i.dataUrl } }),
    field: 'patch.mode',
  },
  pixelate: {
    valid: (i) => ({
      image: i.asset,
      pixelGridSize: 32,
      removeNoise: true,
      colorPalette: [
        [0, 0, 0],
        [255, 255, 255],
      ],
    }),
    invalid: (i) => ({ image: i.asset, pixelGridSize: 33, removeNoise: true }),
    field: 'pixelGridSize',
  },
  prompt: {
    valid: () => ({ mode: 'structured', prompt: 'a castle', numResults: 2 }),
    invalid: () => ({ mode: 'image-editing' }),
    field: 'image',
  },
  'prompt-editing': {
    valid: (i) => ({ image: i.asset, prompt: 'make the sky red', modelId: 'gpt-image-1' }),
    invalid: (i) => ({ image: i.asset, prompt: 'x', modelId: 'dall-e' }),
    field: 'modelId',
  },
  reframe: {
    valid: (i) => ({ image: i.dataUrl, targetWidth: 1024, targetHeight: 768 }),
    invalid: (i) => ({ image: i.dataUrl, targetWidth: 1024 }),
    field: 'targetHeight',
  },
  'remove-background': {
    valid: (i) => ({ image: i.asset, format: 'png' }),
    invalid: (i) => ({ image: i.dataUrl }),
    field: 'image',
  },
  restyle: {
    valid: (i) => ({ image: i.dataUrl, styleImages: [i.asset] }),
    invalid: (i) => ({ image: i.asset, styleImages: [] }),
    field: 'styleImages',
  },
  segment: {
    valid: (i) => ({ image: i.dataUrl, bbox: [1, 2, 30, 40], points: [[1, 10, 10]] }),
    invalid: (i) => ({ image: i.dataUrl, bbox: [1, 2] }),
    field: 'bbox',
  },
  'skybox-base-360': {
    valid: () => ({ prompt: 'a mountain landscape', width: 2048, numOutputs: 2 }),
    invalid: () => ({ prompt: 'x', width: 512 }),
    field: 'width',
  },
  'skybox-upscale-360': {
    valid: (i) => ({ image: i.asset, scalingFactor: 2 }),
    invalid: (i) => ({ image: i.asset, scalingFactor: 9 }),
    field: 'scalingFactor',
  },
  texture: {
    valid: (i) => ({ texture: i.asset, polished: 0.5 }),
    invalid: (i) => ({ texture: i.asset, polished: 2 }),
    field: 'polished',
  },
  translate: { valid: () => ({ prompt: 'un chat sur un toit' }), invalid: () => ({}), field: 'prompt' },
  upscale: {
    valid: (i) => ({ image: i.dataUrl, scalingFactor: 4, preset: 'precise' }),
    invalid: (i) => ({ image: i.dataUrl, preset: 'sharp' }),
    field: 'preset',
  },
  vectorize: {
    valid: (i) => ({ image: i.asset, preset: 'poster' }),
    invalid: () => ({ preset: 'poster' }),
    field: 'image',
  },
};
