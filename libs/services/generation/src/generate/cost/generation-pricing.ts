import { Inject, Injectable } from '@nestjs/common';
import {
  CREATIVE_UNITS_GROUPS,
  creativeUnitsCost,
  creativeUnitsRate,
  GENERATION_MODE_GROUPS,
  type CreativeUnitsRate,
  creativeUnitsCostTableFromEnv,
  type CreativeUnitsCostTable,
  type CreativeUnitsPrice,
  type CreativeUnitsRequest,
  type GenerationMode as PricedMode,
  INFERENCE_DEFAULT_SIDE,
  INPUT_PICTURE_FIELDS,
  pictureOutputSize,
  SKYBOX_DEFAULT_WIDTH,
} from '@genasset/contracts';
import { PROCESS_ENV } from '@genasset/config';
import type { InputSize } from '../inputs/input-resolver';

/** Scaling factor assumed by upscale modes when neither scalingFactor nor targetWidth is given. */
export const DEFAULT_SCALING_FACTOR = 2;

const positive = (value: unknown): number | undefined =>
  typeof value === 'number' && value > 0 ? value : undefined;

/**
 * The size an inference request produces: `width` × `height`, a missing side
 * being the body's default (512); with neither, the input picture's size
 * (img2img-like modes draw over it, at most 2048 px on its long side), else 512 × 512.
 */
function inferenceOutputSize(
  body: Record<string, unknown>,
  sizes: readonly InputSize[],
): { width: number; height: number } {
  const width = positive(body.width);
  const height = positive(body.height);
  if (width !== undefined || height !== undefined)
    return { width: width ?? INFERENCE_DEFAULT_SIDE, height: height ?? INFERENCE_DEFAULT_SIDE };
  const picture = INPUT_PICTURE_FIELDS.map((field) => sizes.find((s) => s.path === field)).find(
    (s) => s?.width && s.height,
  );
  if (!picture?.width || !picture.height)
    return { width: INFERENCE_DEFAULT_SIDE, height: INFERENCE_DEFAULT_SIDE };
  return pictureOutputSize(picture.width, picture.height);
}

/**
 * What the price of a request depends on (docs/credits.md, "Cost model"): the
 * output size and the number of outputs. The input image's size is read from
 * its header (data URL) or asset-service's record (asset id); an input of
 * unknown size (an asset of another kind) counts as the pricing default,
 * 1024 × 1024.
 */
export function pricingRequest(
  mode: PricedMode,
  body: Record<string, unknown>,
  sizes: readonly InputSize[],
): CreativeUnitsRequest {
  // texture names its input image `texture`; every other mode, `image`.
  const input = sizes.find((s) => s.path === (mode === 'texture' ? 'texture' : 'image'));
  const inputSize = { width: input?.width, height: input?.height };
  switch (mode) {
    case 'skybox-base-360': {
      // Equirectangular: twice as wide as high; without a width, the engines render 2048 wide.
      const width = positive(body.width) ?? SKYBOX_DEFAULT_WIDTH;
      return { mode, width, height: width / 2, numSamples: positive(body.numOutputs) };
    }
    case 'prompt-editing':
      return { mode, numSamples: positive(body.numSamples) };
    case 'reframe':
      return { mode, width: positive(body.targetWidth), height: positive(body.targetHeight) };
    case 'generative-fill':
      return {
        mode,
        width: positive(body.targetWidth) ?? inputSize.width,
        height: positive(body.targetHeight) ?? inputSize.height,
      };
    case 'upscale':
    case 'skybox-upscale-360': {
      const baseWidth = inputSize.width ?? 1024;
      const baseHeight = inputSize.height ?? 1024;
      const target = positive(body.targetWidth);
      const factor = target ? target / baseWidth : (positive(body.scalingFactor) ?? DEFAULT_SCALING_FACTOR);
      return { mode, width: Math.round(baseWidth * factor), height: Math.round(baseHeight * factor) };
    }
    case 'caption': {
      const count = (v: unknown) => (Array.isArray(v) ? v.length : 0);
      return { mode, numSamples: Math.max(1, count(body.images) + count(body.assetIds)) };
    }
    case 'prompt':
      return { mode, numSamples: positive(body.numResults) };
    case 'describe-style':
    case 'embed':
    case 'translate':
      return { mode };
    case 'detect':
    case 'patch':
    case 'pixelate':
    case 'remove-background':
    case 'restyle':
    case 'segment':
    case 'texture':
    case 'vectorize':
      return { mode, ...inputSize };
    case 'custom':
      // Any model: the requested output size × outputs (no documented default size).
      return {
        mode,
        width: positive(body.width),
        height: positive(body.height),
        numSamples: positive(body.numSamples) ?? positive(body.numOutputs),
      };
    default:
      // Model inference (txt2img…, controlnet…): the output size × samples.
      return { mode, ...inferenceOutputSize(body, sizes), numSamples: positive(body.numSamples) };
  }
}

/** Prices requests with the cost table of the process (CREATIVE_UNITS_COSTS, read once at start). */
@Injectable()
export class GenerationPricing {
  private readonly table: CreativeUnitsCostTable;

  constructor(@Inject(PROCESS_ENV) env: NodeJS.ProcessEnv) {
    this.table = creativeUnitsCostTableFromEnv(env);
  }

  price(mode: PricedMode, body: Record<string, unknown>, sizes: readonly InputSize[]): CreativeUnitsPrice {
    return creativeUnitsCost(pricingRequest(mode, body, sizes), this.table);
  }

  /** The rate of every mode under this process's table, by group then mode (`GET /v1/oscu/prices`). */
  rates(): ({ mode: PricedMode; group: string } & CreativeUnitsRate)[] {
    return CREATIVE_UNITS_GROUPS.flatMap((group) =>
      GENERATION_MODE_GROUPS[group].map((mode: PricedMode) => ({ mode, group, ...creativeUnitsRate(mode, this.table) })),
    );
  }
}
