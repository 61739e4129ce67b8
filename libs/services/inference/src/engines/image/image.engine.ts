import type { Engine, EngineContext, EngineJob, EngineResult } from '../engine';
import { EngineError } from '../engine';
import { CLASSICAL_MODALITIES } from './detect';
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

type ModeRunner = (job: EngineJob, ctx: EngineContext) => Promise<EngineResult>;

const RUNNERS: Readonly<Record<string, ModeRunner>> = {
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

/** Every route the image engine serves: its modes, and detect with a classical modality. */
export const IMAGE_ROUTES: readonly string[] = [
  ...Object.keys(RUNNERS).filter((mode) => mode !== 'detect'),
  ...CLASSICAL_MODALITIES.map((modality) => `detect:${modality}`),
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
    const runner = RUNNERS[job.mode];
    if (!runner) throw new EngineError(`the image engine does not run ${job.mode}`);
    return runner(job, ctx);
  }
}
