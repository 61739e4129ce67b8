import sharp, { type Sharp } from 'sharp';
import { checkPixels, open, sizeOf } from './raster';

export interface UpscaleOptions {
  width: number;
  height: number;
  /** Wrap horizontally (360° skyboxes, tiling textures): the left and right edges stay continuous. */
  wrapX?: boolean;
  /** Wrap vertically too (tiling textures). */
  wrapY?: boolean;
  /** −50…50: negative softens, positive sharpens after resampling. */
  detailsLevel?: number;
}

/** Output size of an upscale: `targetWidth` wins over `scalingFactor`, aspect ratio kept. */
export function upscaleSize(
  width: number,
  height: number,
  factor: number,
  targetWidth?: number,
): { width: number; height: number; factor: number } {
  const f = targetWidth ? targetWidth / width : factor;
  return {
    width: Math.max(1, Math.round(width * f)),
    height: Math.max(1, Math.round(height * f)),
    factor: f,
  };
}

/**
 * Lanczos-3 resampling to an exact size. With wrapping, the image is first
 * padded with its own opposite edge (sharp `extend` with `repeat`), resampled,
 * and the padding cropped off again: the kernel sees across the seam, so a
 * seamless input stays seamless (a plain resize clamps at the edges and opens
 * a visible seam in a 360° panorama or a tiling texture).
 */
export async function lanczosUpscale(bytes: Buffer, options: UpscaleOptions): Promise<Buffer> {
  const source = await sizeOf(bytes);
  checkPixels(options.width, options.height);
  let pipeline: Sharp;
  if (options.wrapX || options.wrapY) {
    const px = options.wrapX ? Math.min(source.width, 8) : 0;
    const py = options.wrapY ? Math.min(source.height, 8) : 0;
    const { data, info } = await open(bytes)
      .rotate()
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const padded = await sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } })
      .extend({ left: px, right: px, top: py, bottom: py, extendWith: 'repeat' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    // Rows beyond a non-wrapping edge: clamp them (copy) instead of wrapping.
    const clamped = options.wrapY
      ? padded
      : await sharp(padded.data, {
          raw: { width: padded.info.width, height: padded.info.height, channels: 4 },
        })
          .extend({ top: 8, bottom: 8, extendWith: 'copy' })
          .raw()
          .toBuffer({ resolveWithObject: true });
    const padY = options.wrapY ? py : 8;
    const scaleX = options.width / source.width;
    const scaleY = options.height / source.height;
    const qx = Math.round(px * scaleX);
    const qy = Math.round(padY * scaleY);
    pipeline = sharp(clamped.data, {
      raw: { width: clamped.info.width, height: clamped.info.height, channels: 4 },
    })
      .resize(options.width + 2 * qx, options.height + 2 * qy, { kernel: 'lanczos3', fit: 'fill' })
      .extract({ left: qx, top: qy, width: options.width, height: options.height });
  } else {
    pipeline = open(bytes)
      .rotate()
      .resize(options.width, options.height, { kernel: 'lanczos3', fit: 'fill' });
  }
  const details = options.detailsLevel ?? 0;
  if (details > 0) pipeline = sharp(await pipeline.png().toBuffer()).sharpen({ sigma: 0.5 + details / 50 });
  else if (details < 0)
    pipeline = sharp(await pipeline.png().toBuffer()).blur(Math.max(0.3, (-details / 50) * 1.5));
  return pipeline.png().toBuffer();
}
