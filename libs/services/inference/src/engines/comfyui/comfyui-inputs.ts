import { maskAsAlpha } from '../backend/backend-images';
import { EngineError, type EngineContext, type InputImage } from '../engine';
import type { ComfyuiClient, FileRef } from './comfyui.client';
import { fieldValue, IMAGE_PLACEHOLDERS, type Workflow } from './workflow';

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' };

/** `subfolder/name`: how LoadImage names an uploaded file outside the input folder's root. */
const loadName = (ref: FileRef) => (ref.subfolder ? `${ref.subfolder}/${ref.filename}` : ref.filename);

/**
 * Uploads the input images a workflow's placeholders need and returns the names LoadImage takes.
 * Files are named after the submission (`<submission>-image.png`) under the `genasset` subfolder,
 * with `overwrite`: a resubmission after a crash replaces, never piles up copies.
 *
 * `{{masked_image}}` is ComfyUI's own inpainting input: the image uploaded, then the mask through
 * POST /upload/mask with `original_ref` pointing at it — the server writes the image with the
 * mask as its alpha, and LoadImage's MASK output is where that alpha is transparent. The request's
 * mask is white where to repaint, so its luminance is inverted into the alpha sent.
 */
export async function uploadInputs(
  client: ComfyuiClient,
  workflow: Workflow,
  input: Record<string, unknown>,
  ctx: EngineContext,
  submission: string,
): Promise<Record<string, string>> {
  const names: Record<string, string> = {};
  const read = async (placeholder: string, fields: readonly string[]): Promise<InputImage> => {
    const field = fields.find((f) => {
      const v = fieldValue(input, f);
      return v !== undefined && v !== null && v !== '';
    });
    if (!field)
      throw new EngineError(`the ${workflow.name} workflow needs ${fields[0]} ({{${placeholder}}}), which the request does not give`);
    return ctx.readInput(fieldValue(input, field), field);
  };
  const put = (kind: 'image' | 'mask', bytes: Buffer, name: string, extra: Record<string, string> = {}) =>
    client.upload(kind, bytes, name, { type: 'input', subfolder: 'genasset', overwrite: 'true', ...extra }, ctx.signal);
  for (const placeholder of workflow.placeholders) {
    const fields = IMAGE_PLACEHOLDERS[placeholder];
    if (!fields) continue;
    const image = await read(placeholder, fields);
    const extension = EXTENSIONS[image.mimeType] ?? 'png';
    if (placeholder !== 'masked_image') {
      names[placeholder] = loadName(await put('image', image.bytes, `${submission}-${placeholder}.${extension}`));
      continue;
    }
    const original = await put('image', image.bytes, `${submission}-original.${extension}`);
    const mask = await read('mask', IMAGE_PLACEHOLDERS.mask);
    const alpha = await maskAsAlpha(mask.bytes, image.bytes);
    const merged = await put('mask', alpha, `${submission}-masked.png`, { original_ref: JSON.stringify(original) });
    names[placeholder] = loadName(merged);
  }
  return names;
}
