import { builtInEngineOf, MODE_ROUTES } from '@genasset/contracts';
import {
  EngineError,
  throwIfAborted,
  type Engine,
  type EngineContext,
  type EngineJob,
  type EngineResult,
} from '../engine';
import { int, str } from '../image/params';
import { analyseImage, type ImageAnalysis } from './image-analysis';
import { caption, describeStyle, withoutUnwanted } from './describe';
import { completedPrompts, contextualPrompts, structuredPrompts } from './prompts';
import { fnv1a, textEmbedding } from './text-embedding';

/** Routes the text engine runs by default (translate needs a language model: http or preview). */
export const TEXT_ROUTES: readonly string[] = MODE_ROUTES.filter((route) => builtInEngineOf(route) === 'text');

/** describe-style and contextual prompts read at most this many reference images. */
const MAX_REFERENCES = 8;

/**
 * Result-field modes answered by classical methods, no model: captions and
 * style descriptions written from measurements of the images (palette by
 * k-means in L*a*b*, tone, contrast, colourfulness, edge density), a
 * character-n-gram text embedding, and prompts restructured or completed
 * from the user's own words by templates. What a method cannot do honestly
 * (invent a prompt, write an editing instruction for an image, describe a
 * model's style without images) goes to `fallback` — the preview engine when
 * previews are on — or fails with what to configure. The job's output says
 * which engine answered (`engine: "text"` or `"preview"`).
 */
export class TextEngine implements Engine {
  readonly name = 'text';

  constructor(private readonly fallback?: Engine) {}

  supports(route: string): boolean {
    return TEXT_ROUTES.includes(route);
  }

  async run(job: EngineJob, ctx: EngineContext): Promise<EngineResult> {
    const fields = await this.answer(job, ctx);
    if (!fields) return this.delegate(job, ctx);
    return { outputs: [], extra: { ...fields, engine: this.name } };
  }

  /** The result fields, or undefined when this request needs a model. */
  private async answer(job: EngineJob, ctx: EngineContext): Promise<Record<string, unknown> | undefined> {
    const { input } = job;
    switch (job.mode) {
      case 'caption': {
        const unwanted = strings(input.unwantedSequences);
        const analyses = await this.analyse(references(input), ctx, Infinity);
        const captions = analyses.map((a) => withoutUnwanted(caption(a, str(input.detailsLevel)), unwanted));
        return { captions };
      }
      case 'describe-style': {
        const analyses = await this.analyse(references(input), ctx, MAX_REFERENCES);
        if (!analyses.length) return undefined;
        const unwanted = strings(input.unwantedSequences);
        const { description, synthesis } = describeStyle(analyses);
        return {
          description: withoutUnwanted(description, unwanted),
          synthesis: withoutUnwanted(synthesis, unwanted),
        };
      }
      case 'embed':
        return { embedding: textEmbedding(str(input.text) ?? '') };
      case 'prompt':
        return this.prompts(job, ctx);
      default:
        return undefined;
    }
  }

  private async prompts(job: EngineJob, ctx: EngineContext): Promise<Record<string, unknown> | undefined> {
    const { input } = job;
    const mode = str(input.mode) ?? 'structured';
    const prompt = str(input.prompt)?.trim();
    const count = int(input.numResults, 1, 1, 5);
    const seed = seedOf(input.seed) ?? fnv1a(JSON.stringify({ mode, prompt, count }));
    let prompts: string[] | undefined;
    if (mode === 'structured' && prompt) prompts = structuredPrompts(prompt, count, seed);
    else if (mode === 'completion' && prompt) prompts = completedPrompts(prompt, count, seed);
    else if (mode === 'contextual') {
      const analyses = await this.analyse(references(input), ctx, MAX_REFERENCES);
      if (analyses.length)
        prompts = contextualPrompts(prompt, describeStyle(analyses).synthesis, count, seed);
    }
    return prompts ? { prompts, seed } : undefined;
  }

  private async analyse(
    refs: { reference: unknown; field: string }[],
    ctx: EngineContext,
    max: number,
  ): Promise<ImageAnalysis[]> {
    const analyses: ImageAnalysis[] = [];
    for (const [i, ref] of refs.slice(0, max).entries()) {
      throwIfAborted(ctx.signal);
      const image = await ctx.readInput(ref.reference, ref.field);
      analyses.push(await analyseImage(image.bytes, ref.field));
      await ctx.progress((i + 1) / Math.min(refs.length, max));
    }
    return analyses;
  }

  private delegate(job: EngineJob, ctx: EngineContext): Promise<EngineResult> {
    if (this.fallback) return this.fallback.run(job, ctx);
    const what =
      job.mode === 'prompt'
        ? `prompt mode ${str(job.input.mode) ?? 'structured'} with this input`
        : `${job.mode} without images`;
    throw new EngineError(
      `${what} needs a language model, and none is configured on this server (operators: set INFERENCE_ENGINES, e.g. ${job.mode}=http with INFERENCE_HTTP_URL)`,
    );
  }
}

/** The images a request names, in order: `images` (data-URL inputs are stored keys by now), then the deprecated `assetIds`. */
export function references(input: Record<string, unknown>): { reference: unknown; field: string }[] {
  const list = (v: unknown) => (Array.isArray(v) ? v : []);
  return [
    ...list(input.images).map((reference, i) => ({ reference, field: `images.${i}` })),
    ...list(input.assetIds).map((reference, i) => ({ reference, field: `assetIds.${i}` })),
  ];
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function seedOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) >>> 0 : undefined;
}
