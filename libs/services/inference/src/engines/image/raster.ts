import colorString from 'color-string';
import sharp, { type Sharp } from 'sharp';
import { EngineError } from '../engine';

/** Decoded pixels, row-major, `channels` bytes per pixel (RGBA unless said otherwise). */
export interface Raster {
  data: Uint8Array;
  width: number;
  height: number;
  channels: number;
}

/** Largest input or output an image algorithm accepts (pixels); set from INFERENCE_MAX_PIXELS. */
export const RASTER_LIMITS = { maxPixels: 64 * 1024 * 1024 };

/** Opens an input for a sharp pipeline, refusing what is not an image or beyond the pixel limit. */
export function open(bytes: Buffer): Sharp {
  return sharp(bytes, { limitInputPixels: RASTER_LIMITS.maxPixels, failOn: 'error' });
}

/** Size of an input image as displayed (EXIF orientation applied). */
export async function sizeOf(bytes: Buffer, field = 'image'): Promise<{ width: number; height: number }> {
  try {
    const meta = await sharp(bytes).metadata();
    const width = meta.autoOrient?.width ?? meta.width;
    const height = meta.autoOrient?.height ?? meta.height;
    if (!width || !height) throw new Error('no dimensions');
    checkPixels(width, height, field);
    return { width, height };
  } catch (error) {
    if (error instanceof EngineError) throw error;
    throw new EngineError(`${field} is not a readable image`);
  }
}

/** Decodes to RGBA (orientation applied, alpha added when missing). */
export async function decode(bytes: Buffer, field = 'image'): Promise<Raster> {
  await sizeOf(bytes, field);
  try {
    const { data, info } = await open(bytes)
      .rotate()
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, channels: info.channels };
  } catch {
    throw new EngineError(`${field} could not be decoded: the image data is truncated or corrupt`);
  }
}

/** Refuses an input or output beyond the pixel limit, with numbers a client can act on. */
export function checkPixels(width: number, height: number, what = 'the output'): void {
  if (width * height > RASTER_LIMITS.maxPixels) {
    throw new EngineError(
      `${what} would be ${width}×${height} pixels; this worker handles at most ${RASTER_LIMITS.maxPixels} pixels per image`,
    );
  }
}

export function newRaster(width: number, height: number, channels = 4): Raster {
  return { data: new Uint8Array(width * height * channels), width, height, channels };
}

/** PNG bytes of a raster (1, 3 or 4 channels). */
export async function encodePng(raster: Raster): Promise<Buffer> {
  return sharp(Buffer.from(raster.data.buffer, raster.data.byteOffset, raster.data.byteLength), {
    raw: { width: raster.width, height: raster.height, channels: raster.channels as 1 | 2 | 3 | 4 },
  })
    .png({ compressionLevel: 6 })
    .toBuffer();
}

/** Rec. 601 luma of each pixel, 0–255 (alpha ignored). */
export function luma(raster: Raster): Float32Array {
  const { data, width, height, channels } = raster;
  const out = new Float32Array(width * height);
  if (channels < 3) {
    for (let i = 0; i < out.length; i++) out[i] = data[i * channels];
    return out;
  }
  for (let i = 0, p = 0; i < out.length; i++, p += channels) {
    out[i] = 0.299 * data[p] + 0.587 * data[p + 1] + 0.114 * data[p + 2];
  }
  return out;
}

/** A one-channel float plane as an 8-bit grey raster (values clamped and rounded). */
export function planeToGray(plane: ArrayLike<number>, width: number, height: number): Raster {
  const data = new Uint8Array(width * height);
  for (let i = 0; i < data.length; i++) data[i] = clampByte(plane[i]);
  return { data, width, height, channels: 1 };
}

export function clampByte(v: number): number {
  return v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
}

/** Lets other work (consumers, heartbeats) run between rows of a long pixel loop. */
export function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Separable gaussian blur of a float plane (edges clamped); sigma ≤ 0 returns a copy. */
export function gaussianBlur(
  plane: Float32Array,
  width: number,
  height: number,
  sigma: number,
  wrap = false,
): Float32Array {
  if (sigma <= 0) return plane.slice();
  const radius = Math.max(1, Math.ceil(sigma * 3));
  const kernel = new Float32Array(radius * 2 + 1);
  let sum = 0;
  for (let i = -radius; i <= radius; i++)
    sum += kernel[i + radius] = Math.exp(-(i * i) / (2 * sigma * sigma));
  for (let i = 0; i < kernel.length; i++) kernel[i] /= sum;
  const tmp = new Float32Array(plane.length);
  const out = new Float32Array(plane.length);
  const at = (i: number, n: number) => (wrap ? ((i % n) + n) % n : i < 0 ? 0 : i >= n ? n - 1 : i);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      let acc = 0;
      for (let k = -radius; k <= radius; k++) acc += plane[row + at(x + k, width)] * kernel[k + radius];
      tmp[row + x] = acc;
    }
  }
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let acc = 0;
      for (let k = -radius; k <= radius; k++) acc += tmp[at(y + k, height) * width + x] * kernel[k + radius];
      out[y * width + x] = acc;
    }
  }
  return out;
}

/** Sobel derivatives of a plane (edges clamped, or wrapped for seamless textures). */
export function sobel(
  plane: Float32Array,
  width: number,
  height: number,
  wrap = false,
): { gx: Float32Array; gy: Float32Array } {
  const gx = new Float32Array(plane.length);
  const gy = new Float32Array(plane.length);
  const cx = (x: number) => (wrap ? (x + width) % width : Math.min(width - 1, Math.max(0, x)));
  const cy = (y: number) => (wrap ? (y + height) % height : Math.min(height - 1, Math.max(0, y)));
  for (let y = 0; y < height; y++) {
    const up = cy(y - 1) * width;
    const row = y * width;
    const down = cy(y + 1) * width;
    for (let x = 0; x < width; x++) {
      const l = cx(x - 1);
      const r = cx(x + 1);
      const tl = plane[up + l],
        t = plane[up + x],
        tr = plane[up + r];
      const ml = plane[row + l],
        mr = plane[row + r];
      const bl = plane[down + l],
        b = plane[down + x],
        br = plane[down + r];
      gx[row + x] = tr + 2 * mr + br - (tl + 2 * ml + bl);
      gy[row + x] = bl + 2 * b + br - (tl + 2 * t + tr);
    }
  }
  return { gx, gy };
}

/**
 * Parses a CSS colour (hex, a CSS colour name, `transparent`, rgb()/rgba(); case-insensitive) to RGBA
 * bytes with color-string, the parser generation-service validates requests with. `fallback` when
 * absent or unreadable (a job stored before validation was strict).
 */
export function parseColour(
  text: string | undefined,
  fallback: [number, number, number, number],
): [number, number, number, number] {
  if (!text) return fallback;
  const rgba = colorString.get.rgb(text.trim().toLowerCase());
  if (!rgba) return fallback;
  return [rgba[0], rgba[1], rgba[2], clampByte(rgba[3] * 255)];
}
