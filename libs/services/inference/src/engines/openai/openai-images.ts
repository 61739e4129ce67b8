import sharp from 'sharp';
import { MAX_JOB_OUTPUTS } from '@genasset/contracts';
import type { OpenaiBackendConfig } from '@genasset/config';
import type { BackendHttp } from '../backend/backend-http';
import { maskAsAlpha, parentOf } from '../backend/backend-images';
import { base64Chunks, inlineAnswerBytes, storeBackendFile, tooLarge } from '../backend/backend-outputs';
import { EngineError, type EngineContext, type EngineJob, type StoredOutput } from '../engine';
import { int, str } from '../image/params';
import { outputAssetType } from '../modes';

/** What generative-fill asks when the request has no prompt (the images API needs one). */
const FILL_PROMPT = 'Fill the transparent area so that it blends seamlessly with the rest of the picture.';

/**
 * txt2img through `POST /images/generations` ({model, prompt, n, size, response_format}), and the
 * edits — inpaint, generative-fill, prompt-editing — through `POST /images/edits` (multipart: the
 * image as PNG, the mask as a PNG transparent where to edit, prompt, n, size). Each answer is
 * `{data: [{b64_json | url, revised_prompt?}]}`, read to at most n images at maxOutputBytes; each
 * image goes through the one backend output path (storeBackendFile): a URL streamed from the
 * server, b64_json size-checked before it is decoded, then decoded a slice at a time.
 */
export async function openaiImages(
  http: BackendHttp,
  config: OpenaiBackendConfig,
  job: EngineJob,
  ctx: EngineContext,
  signal: AbortSignal,
): Promise<StoredOutput[]> {
  const { input } = job;
  const model = config.models.image!;
  const n = int(input.numSamples, 1, 1, MAX_JOB_OUTPUTS);
  let prompt = str(input.prompt)?.trim() ?? '';
  const negative = str(input.negativePrompt)?.trim();
  if (negative && config.negativePromptSeparator) prompt = `${prompt}${config.negativePromptSeparator}${negative}`;
  const format = config.imageResponseFormat === 'omit' ? {} : { response_format: config.imageResponseFormat };
  // b64_json answers carry the images inline: the answer is read to at most n files at the limit.
  const answerLimit = inlineAnswerBytes(config.maxOutputBytes, n);
  let answer: unknown;
  let call: string;
  if (job.mode === 'txt2img') {
    if (!prompt) throw new EngineError('txt2img needs a prompt');
    const size = sizeFor(config, input.width, input.height);
    call = 'POST /images/generations';
    answer = await http.json(
      call,
      'images/generations',
      { method: 'POST', body: JSON.stringify({ model, prompt, n, ...(size ? { size } : {}), ...format }), signal },
      answerLimit,
    );
  } else {
    const image = await ctx.readInput(input.image, 'image');
    const png = await sharp(image.bytes).ensureAlpha().png().toBuffer();
    const meta = await sharp(png).metadata();
    const form = new FormData();
    form.set('model', model);
    form.set('image', new Blob([png], { type: 'image/png' }), 'image.png');
    const maskRef = input.mask ?? input.maskId;
    if (maskRef) {
      const mask = await ctx.readInput(maskRef, input.mask ? 'mask' : 'maskId');
      // Our masks mark the area to edit white (prompt-editing: black, as upstream's); OpenAI's is transparent there.
      const alpha = await maskAsAlpha(mask.bytes, png, job.mode === 'prompt-editing' ? 'black' : 'white');
      form.set('mask', new Blob([alpha], { type: 'image/png' }), 'mask.png');
    } else if (job.mode !== 'prompt-editing') throw new EngineError(`${job.mode} needs a mask (mask or maskId)`);
    form.set('prompt', prompt || (job.mode === 'generative-fill' ? FILL_PROMPT : ''));
    if (!form.get('prompt')) throw new EngineError(`${job.mode} needs a prompt`);
    form.set('n', String(n));
    const size = sizeFor(config, input.targetWidth ?? meta.width, input.targetHeight ?? meta.height);
    if (size) form.set('size', size);
    if (format.response_format) form.set('response_format', format.response_format);
    call = 'POST /images/edits';
    answer = await http.json(call, 'images/edits', { method: 'POST', body: form, signal }, answerLimit);
  }
  const data = (answer as { data?: unknown })?.data;
  if (!Array.isArray(data) || data.length === 0) throw http.invalid(call, 'no data');
  const parentAssetId = parentOf(input);
  const outputs: StoredOutput[] = [];
  for (const [i, item] of (data as { b64_json?: unknown; url?: unknown; revised_prompt?: unknown }[]).slice(0, MAX_JOB_OUTPUTS).entries()) {
    const what = `image ${i + 1}`;
    const refuse = (size: string) => tooLarge(http.label, what, size, config.maxOutputBytes);
    let chunks: AsyncIterable<Buffer>;
    if (typeof item?.b64_json === 'string') chunks = base64Chunks(item.b64_json, config.maxOutputBytes, refuse);
    else if (typeof item?.url === 'string') chunks = await http.open(item.url, config.maxOutputBytes, what, signal);
    else throw http.invalid(call, `data[${i}] has neither b64_json nor url`);
    const file = {
      assetType: outputAssetType(job.mode),
      ...(parentAssetId ? { parentAssetId } : {}),
      metadata: {
        backend: config.name,
        backendModel: model,
        ...(typeof item.revised_prompt === 'string' ? { revisedPrompt: item.revised_prompt } : {}),
      },
    };
    outputs.push(await storeBackendFile(ctx, http.label, job.mode, { what, chunks, file }));
  }
  return outputs;
}

/** The `size` sent: one of the configured sizes (the closest aspect, then area), else width×height when both are known. */
export function sizeFor(config: Pick<OpenaiBackendConfig, 'sizes'>, width: unknown, height: unknown): string | undefined {
  const w = typeof width === 'number' && width > 0 ? Math.round(width) : undefined;
  const h = typeof height === 'number' && height > 0 ? Math.round(height) : undefined;
  if (!config.sizes) return w && h ? `${w}x${h}` : undefined;
  if (!w || !h) return config.sizes[0];
  const score = (size: string) => {
    const [sw, sh] = size.split('x').map(Number);
    return Math.abs(Math.log(sw / sh / (w / h))) * 10 + Math.abs(Math.log((sw * sh) / (w * h)));
  };
  return [...config.sizes].sort((a, b) => score(a) - score(b))[0];
}
