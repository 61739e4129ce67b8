import sharp from 'sharp';
import { INPUT_PICTURE_FIELDS } from '@genasset/contracts';
import { EngineError } from '../engine';
import { str } from '../image/params';

/** The input picture an output derives from: its asset id, else imageParentId. */
export function parentOf(input: Record<string, unknown>): string | undefined {
  const field = INPUT_PICTURE_FIELDS.find((f) => typeof input[f] === 'string');
  const value = field ? str(input[field]) : undefined;
  return value?.startsWith('asset_') ? value : str(input.imageParentId);
}

/**
 * A mask as a PNG (black, at the image's size) whose alpha is transparent where to edit: what
 * ComfyUI's /upload/mask and OpenAI's /images/edits take. `edit` says which colour of the request's
 * mask marks the area to edit (white for inpaint and generative-fill, black for prompt-editing).
 */
export async function maskAsAlpha(mask: Buffer, image: Buffer, edit: 'white' | 'black' = 'white'): Promise<Buffer> {
  try {
    const { width, height } = await sharp(image).metadata();
    const grey = await sharp(mask)
      .resize(width, height, { fit: 'fill' })
      .greyscale()
      .negate({ alpha: false })
      .extractChannel(0)
      .toBuffer();
    const alpha = edit === 'white' ? grey : await sharp(grey).negate({ alpha: false }).toBuffer();
    return await sharp({ create: { width: width!, height: height!, channels: 3, background: '#000000' } })
      .joinChannel(alpha)
      .png()
      .toBuffer();
  } catch {
    throw new EngineError('mask could not be read as an image');
  }
}
