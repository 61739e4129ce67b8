import { builtInEngineOf, MODE_ROUTES, type GenerationMode, type MODE_TABLE } from '@genasset/contracts';
import type { Engine, EngineContext, EngineJob, EngineResult, ModeJob } from '../engine';
import { EngineError, jobOf } from '../engine';
import { runDetect } from './modes/detect.mode';
import { runGenerativeFill } from './modes/generative-fill.mode';
import { runPatch } from './modes/patch.mode';
import { runPixelate } from './modes/pixelate.mode';
import { runReframe } from './modes/reframe.mode';
import { runRemoveBackground } from './modes/remove-background.mode';
import { runRestyle } from './modes/restyle.mode';
import { runSegment } from './modes/segment.mode';
import { runTexture } from './modes/texture.mode';
import { runUpscale } from './modes/upscale.mode';
import { trainColourModel, TRAINER_SETTINGS } from '../training/colour-trainer';

type ModeRunner<M extends GenerationMode> = (job: ModeJob<M>, ctx: EngineContext) => Promise<EngineResult>;

/** The modes the mode table gives the image engine: each must have its runner (the compiler checks). */
type ImageMode = {
  [M in GenerationMode]: (typeof MODE_TABLE)[M]['engine'] extends 'image' ? M : never;
}[GenerationMode];

const RUNNERS: { readonly [M in ImageMode]: ModeRunner<M> } = {
  pixelate: runPixelate,
  upscale: runUpscale,
  'skybox-upscale-360': runUpscale,
  texture: runTexture,
  detect: runDetect,
  reframe: runReframe,
  patch: runPatch,
  'generative-fill': runGenerativeFill,
  segment: runSegment,
  restyle: runRestyle,
  'remove-background': runRemoveBackground,
};

/** Every route the image engine serves: the mode table's image routes (detect with a classical modality). */
export const IMAGE_ROUTES: readonly string[] = [
  ...MODE_ROUTES.filter((route) => builtInEngineOf(route) === 'image'),
  // The built-in trainer: learns a model's colour statistics (docs/models.md).
  'model-training',
];

/**
 * Real image processing with sharp and plain pixel loops: the modes classical
 * algorithms do well (docs/engines.md has the method of each). No model runs
 * here, and the outputs say so in their metadata (`engine: "image"`).
 */
export class ImageEngine implements Engine {
  readonly name = 'image';
  private readonly routes = new Set(IMAGE_ROUTES);

  supports(route: string): boolean {
    return this.routes.has(route);
  }

  run(job: EngineJob, ctx: EngineContext): Promise<EngineResult> {
    if (job.mode === 'model-training')
      return trainColourModel(job, ctx, { stepDelayMs: TRAINER_SETTINGS.stepDelayMs });
    const mode = job.mode as ImageMode;
    if (!Object.hasOwn(RUNNERS, mode)) throw new EngineError(`the image engine does not run ${job.mode}`);
    // The runner of job.mode takes a job of that mode: one cast for all, as TypeScript cannot pair them itself.
    return (RUNNERS[mode] as ModeRunner<ImageMode>)(jobOf(job, mode)!, ctx);
  }
}
