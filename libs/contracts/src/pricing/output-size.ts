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
