/**
 * How the engines size what they produce when a request leaves it open, shared
 * by generation-service's pricing and inference-worker's engines: a job is
 * charged for the size it gets.
 */

/** A missing `width` or `height` of a model inference body (upstream: "default: 512"). */
export const INFERENCE_DEFAULT_SIDE = 512;

/** skybox-base-360 without `width` is rendered 2048 × 1024 (the body allows 1024–2048). */
export const SKYBOX_DEFAULT_WIDTH = 2048;

/**
 * Fields holding a request's input picture, first found wins: outputs of
 * img2img-like modes take its size when no size is given, and it is their
 * parent. `imageId` and `controlImageId` are the upstream (deprecated) asset-id
 * spellings of `image` and `controlImage`.
 */
export const INPUT_PICTURE_FIELDS: readonly string[] = [
  'image',
  'imageId',
  'texture',
  'controlImage',
  'controlImageId',
];

/** Longest side of an output sized after its input picture (img2img-like modes, image tools). */
export const PICTURE_OUTPUT_MAX_SIDE = 2048;

/** The size of an output drawn over an input picture: the picture's, shrunk to PICTURE_OUTPUT_MAX_SIDE, at least 16 px. */
export function pictureOutputSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, PICTURE_OUTPUT_MAX_SIDE / Math.max(width, height));
  return {
    width: Math.max(16, Math.round(width * scale)),
    height: Math.max(16, Math.round(height * scale)),
  };
}
