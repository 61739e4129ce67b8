import sharp from 'sharp';
import type { OpenaiBackendConfig } from '@genasset/config';
import type { BackendHttp } from '../backend/backend-http';
import { EngineError, type EngineContext, type EngineJob } from '../engine';
import { int, str } from '../image/params';
import { withoutUnwanted } from '../text/describe';
import { references as requestImages } from '../text/text.engine';

/** describe-style and prompts read at most this many images (as the text engine). */
const MAX_REFERENCES = 8;
/** Images are sent as JPEG data URLs at most this many pixels on a side (vision models scale down anyway). */
const MAX_SIDE = 1024;

type Part = { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

/** The instruction of each prompt mode (`prompt` request field `mode`). */
const PROMPT_MODES: Record<string, string> = {
  structured: 'Rewrite the idea below as a well-structured image-generation prompt (subject, setting, style, lighting, composition).',
  completion: 'Complete the image-generation prompt below, keeping its words and adding detail.',
  inventive: 'Invent an original, vivid image-generation prompt, inspired by the idea below if there is one.',
  contextual: 'Write an image-generation prompt for a new picture in the style and subject of the images, following the idea below if there is one.',
  'image-editing': 'Write an instruction that edits the image as the idea below asks (e.g. "make the sky stormy").',
};

/**
 * The language modes through `POST /chat/completions` with the images as data URLs
 * (`{type: "image_url", image_url: {url}}` parts), answering the same result fields as the text and
 * preview engines: caption → `captions` (one call per image, in order), describe-style →
 * `description` and `synthesis`, prompt → `prompts` (and `seed` when given), translate →
 * `translation` and `detectedLanguage`.
 */
export async function openaiChat(
  http: BackendHttp,
  config: OpenaiBackendConfig,
  job: EngineJob,
  ctx: EngineContext,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const { input } = job;
  const unwanted = strings(input.unwantedSequences);
  const ask = (parts: Part[], system: string) => complete(http, config, input, system, parts, signal);
  switch (job.mode) {
    case 'caption': {
      const refs = references(input, Infinity);
      if (!refs.length) throw new EngineError('caption needs images');
      const style = str(input.detailsLevel) === 'action+style' ? ' Mention its visual style too.' : '';
      const captions: string[] = [];
      for (const [i, ref] of refs.entries()) {
        const text = await ask([await imagePart(ctx, ref)], `Write one sentence captioning the image: what it shows and what happens.${style}${avoid(unwanted)}`);
        captions.push(withoutUnwanted(oneParagraph(text), unwanted));
        await ctx.progress((i + 1) / refs.length);
      }
      return { captions };
    }
    case 'describe-style': {
      const refs = references(input, MAX_REFERENCES);
      if (!refs.length) throw new EngineError(`describe-style on the openai backend ${config.name} needs images`);
      const images = await Promise.all(refs.map((ref) => imagePart(ctx, ref)));
      const text = await ask(
        images,
        `Describe the visual style these images share (medium, palette, lighting, line, texture, composition) in a paragraph. Then a line holding only ---, then the style summed up in one short phrase usable in an image prompt.${avoid(unwanted)}`,
      );
      const [description, synthesis] = text.split(/^\s*-{3,}\s*$/m).map(oneParagraph);
      return {
        description: withoutUnwanted(description, unwanted),
        synthesis: withoutUnwanted(synthesis || description.split(/(?<=\.)\s/)[0], unwanted),
      };
    }
    case 'prompt': {
      const mode = str(input.mode) ?? 'structured';
      const count = int(input.numResults, 1, 1, 5);
      const refs = mode === 'image-editing' ? (input.image ? [{ reference: input.image, field: 'image' }] : []) : references(input, MAX_REFERENCES);
      if (mode === 'image-editing' && !refs.length) throw new EngineError('prompt mode image-editing needs image');
      const idea = str(input.prompt)?.trim();
      if ((mode === 'structured' || mode === 'completion') && !idea) throw new EngineError(`prompt mode ${mode} needs a prompt`);
      const parts: Part[] = [...(await Promise.all(refs.map((ref) => imagePart(ctx, ref)))), ...(idea ? [{ type: 'text' as const, text: idea }] : [])];
      const text = await ask(
        parts.length ? parts : [{ type: 'text', text: '(no idea given)' }],
        `${PROMPT_MODES[mode] ?? PROMPT_MODES.structured} Answer with exactly ${count} different prompt(s), one per line, without numbering or quotes.`,
      );
      const prompts = text
        .split('\n')
        .map((line) => line.replace(/^\s*(?:\d+[.)]|[-*•])\s*/, '').replace(/^"(.*)"$/, '$1').trim())
        .filter(Boolean)
        .slice(0, count);
      if (!prompts.length) throw http.invalid('POST /chat/completions', 'no prompt in the answer');
      return { prompts, ...(typeof input.seed === 'number' ? { seed: input.seed } : {}) };
    }
    case 'translate': {
      const prompt = str(input.prompt) ?? '';
      const images = await Promise.all(references(input, MAX_REFERENCES).map((ref) => imagePart(ctx, ref)));
      const text = await ask(
        [...images, { type: 'text', text: prompt }],
        'Translate the text into English (the images, if any, are context). Answer with the ISO 639-1 code of the source language alone on the first line, then the translation.',
      );
      const [first, ...rest] = text.trim().split('\n');
      const code = first.trim().toLowerCase().replace(/[^a-z-]/g, '');
      if (!/^[a-z]{2,3}(-[a-z]+)?$/.test(code) || !rest.length) return { translation: oneParagraph(text), detectedLanguage: 'und' };
      return { translation: rest.join('\n').trim(), detectedLanguage: code };
    }
    default:
      throw new EngineError(`the openai backend ${config.name} cannot run ${job.mode}`);
  }
}

/** One chat completion: the instruction as the system message, the parts as the user's. */
async function complete(
  http: BackendHttp,
  config: OpenaiBackendConfig,
  input: Record<string, unknown>,
  system: string,
  parts: Part[],
  signal: AbortSignal,
): Promise<string> {
  const call = 'POST /chat/completions';
  const answer = await http.json(call, 'chat/completions', {
    method: 'POST',
    signal,
    body: JSON.stringify({
      model: config.models.chat,
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: parts },
      ],
      max_tokens: config.maxTokens,
      ...(typeof input.temperature === 'number' ? { temperature: input.temperature } : {}),
      ...(typeof input.topP === 'number' ? { top_p: input.topP } : {}),
      ...(typeof input.seed === 'number' ? { seed: input.seed } : {}),
    }),
  });
  const content = (answer as { choices?: { message?: { content?: unknown } }[] })?.choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw http.invalid(call, 'no choices[0].message.content');
  if (!content.trim()) throw new EngineError(`${http.label} answered ${call} with an empty message`);
  return content;
}

async function imagePart(ctx: EngineContext, ref: { reference: unknown; field: string }): Promise<Part> {
  const image = await ctx.readInput(ref.reference, ref.field);
  const jpeg = await sharp(image.bytes)
    .rotate()
    .resize(MAX_SIDE, MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 85 })
    .toBuffer();
  return { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${jpeg.toString('base64')}` } };
}

const references = (input: Record<string, unknown>, max: number) => requestImages(input).slice(0, max);

const avoid = (unwanted: string[]) => (unwanted.length ? ` Do not use these words: ${unwanted.join(', ')}.` : '');
const oneParagraph = (text: string | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
