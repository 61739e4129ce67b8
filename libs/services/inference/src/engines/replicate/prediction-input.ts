import { INPUT_PICTURE_FIELDS } from '@genasset/contracts';
import type { EngineContext, EngineJob } from '../engine';
import { seedOf } from '../comfyui/workflow';

/** Request fields and the input names most Cog image models use for them (stability-ai/sdxl, flux, …). */
const FIELDS: Readonly<Record<string, string>> = {
  prompt: 'prompt',
  negativePrompt: 'negative_prompt',
  width: 'width',
  height: 'height',
  numSamples: 'num_outputs',
  numInferenceSteps: 'num_inference_steps',
  guidance: 'guidance_scale',
  strength: 'prompt_strength',
};

/** Picture fields and the model input they become (a data URL: Cog's `Path` inputs take data URLs and URLs). */
const PICTURES: Readonly<Record<string, string>> = { image: 'image', mask: 'mask', controlImage: 'control_image' };

/**
 * The prediction input of a job: the request's fields under the names Cog models use, the seed
 * (the request's, else drawn: recorded so the output says it), input pictures as data URLs, then
 * the route's literal inputs from the backends file (which win: the operator knows the model).
 */
export async function predictionInput(
  job: EngineJob,
  ctx: EngineContext,
  route: string,
  literal: Record<string, Record<string, unknown>>,
): Promise<{ input: Record<string, unknown>; seed: number }> {
  const input: Record<string, unknown> = {};
  for (const [field, name] of Object.entries(FIELDS)) {
    const value = job.input[field];
    if (value !== undefined && value !== null && value !== '') input[name] = value;
  }
  const seed = seedOf(job.input);
  input.seed = seed;
  for (const field of INPUT_PICTURE_FIELDS) {
    const name = PICTURES[field.replace(/Id$/, '')];
    const value = job.input[field];
    if (!name || name in input || typeof value !== 'string' || value === '') continue;
    const image = await ctx.readInput(value, field);
    input[name] = `data:${image.mimeType};base64,${image.bytes.toString('base64')}`;
  }
  return { input: { ...input, ...literal[route] }, seed };
}
