import sharp, { type Metadata } from 'sharp';
import { ApiError } from '@genasset/http';
import { LIMITS } from './limits';

export interface ImageFormat {
  mimeType: string;
  extension: string;
}

/** Formats accepted on upload (what sharp decodes here, minus vector and camera-raw input). */
export const IMAGE_FORMATS = {
  png: { mimeType: 'image/png', extension: 'png' },
  jpeg: { mimeType: 'image/jpeg', extension: 'jpg' },
  webp: { mimeType: 'image/webp', extension: 'webp' },
  gif: { mimeType: 'image/gif', extension: 'gif' },
  avif: { mimeType: 'image/avif', extension: 'avif' },
  tiff: { mimeType: 'image/tiff', extension: 'tiff' },
} as const satisfies Record<string, ImageFormat>;
export type ImageFormatName = keyof typeof IMAGE_FORMATS;
export const IMAGE_FORMAT_NAMES = Object.keys(IMAGE_FORMATS) as ImageFormatName[];

/** What the bytes are, read by sharp (the declared name or MIME type is never trusted). */
export interface ProbedImage {
  format: ImageFormatName;
  mimeType: string;
  extension: string;
  /** As displayed (EXIF orientation applied). */
  width: number;
  height: number;
  /** Bytes of the original. */
  size: number;
  hasAlpha: boolean;
  /** Frames of an animated GIF/WebP. */
  pages?: number;
  /**
   * The decoded pixels, kept when decoding them whole is what the probe did
   * anyway (see {@link probeImage}): the rendition and the embedding start
   * from them instead of decoding the bytes again.
   */
  pixels?: ImagePixels;
}

/** Decoded pixels as displayed (EXIF orientation applied), 8 bits per channel, row-major. */
export interface ImagePixels {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

/**
 * Largest image whose pixels a probe keeps (4 MiB pixels: 16 MiB as RGBA).
 * Larger ones are checked by a streaming decode into a tiny output instead.
 */
const MAX_KEPT_PIXELS = 4 * 1024 * 1024;

function invalidImage(message: string, infos: Record<string, unknown> = {}): ApiError {
  return new ApiError(400, 'invalid_image', message, infos);
}

const open = (bytes: Buffer, animated = false) =>
  sharp(bytes, { limitInputPixels: LIMITS.maxImagePixels, failOn: 'error', animated });

/**
 * Reads format and dimensions and decodes the whole image once (a readable
 * header with truncated or corrupt pixel data is refused too).
 * @throws ApiError 400 `invalid_image` naming what is wrong
 */
export async function probeImage(bytes: Buffer, field = 'image'): Promise<ProbedImage> {
  let metadata: Metadata;
  try {
    metadata = await open(bytes).metadata();
  } catch {
    throw invalidImage(`${field} is not a supported image: its bytes are not PNG, JPEG, WebP, GIF, AVIF or TIFF`, {
      supportedFormats: IMAGE_FORMAT_NAMES,
    });
  }
  const format = formatOf(metadata);
  if (!format) {
    throw invalidImage(`${field} is a ${metadata.format} image, which is not supported; use one of ${IMAGE_FORMAT_NAMES.join(', ')}`, {
      detectedFormat: metadata.format,
      supportedFormats: IMAGE_FORMAT_NAMES,
    });
  }
  const width = metadata.autoOrient?.width ?? metadata.width;
  const height = metadata.autoOrient?.height ?? metadata.height;
  if (!width || !height) throw invalidImage(`${field} has no readable dimensions`);
  let pixels: ImagePixels | undefined;
  try {
    // Decode every pixel so corrupt data fails here, not later: kept when the decode is as the
    // encoders would read the bytes (below), else into a tiny output.
    if (keepsPixels(metadata, format, width, height)) pixels = await decodePixels(bytes);
    else
      await open(bytes, (metadata.pages ?? 1) > 1)
        .resize(8, 8, { fit: 'inside' })
        .raw()
        .toBuffer();
  } catch {
    throw invalidImage(`${field} could not be decoded: the ${format} data is truncated or corrupt`);
  }
  return {
    format,
    ...IMAGE_FORMATS[format],
    width,
    height,
    size: bytes.length,
    hasAlpha: metadata.hasAlpha ?? false,
    ...((metadata.pages ?? 1) > 1 ? { pages: metadata.pages } : {}),
    ...(pixels ? { pixels } : {}),
  };
}

/**
 * Whether a probe keeps the decoded pixels: single-image 8-bit PNGs without
 * an ICC profile, up to MAX_KEPT_PIXELS, whose raw decode is exactly the
 * pixels sharp's encoders and resizers read from the bytes (PNG has no
 * shrink-on-load, no colour conversion applies). Other formats (JPEG's
 * shrink-on-load, profiles, 16-bit) keep their byte-based paths.
 */
function keepsPixels(metadata: Metadata, format: ImageFormatName, width: number, height: number): boolean {
  return (
    format === 'png' &&
    metadata.depth === 'uchar' &&
    !metadata.icc &&
    (metadata.pages ?? 1) === 1 &&
    width * height <= MAX_KEPT_PIXELS
  );
}

async function decodePixels(bytes: Buffer): Promise<ImagePixels> {
  const { data, info } = await open(bytes).rotate().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

/** A sharp pipeline reading decoded pixels. */
export function fromPixels(pixels: ImagePixels) {
  return sharp(pixels.data, {
    raw: { width: pixels.width, height: pixels.height, channels: pixels.channels },
  });
}

/** Whether the pixels hold at most `limit` distinct colours (alpha included); stops at the first one beyond. */
export function hasFewColours(pixels: ImagePixels, limit = 256): boolean {
  const { data, width, height, channels } = pixels;
  const rowBytes = width * channels;
  const seen = new Set<number>();
  let last = -1;
  for (let y = 0, start = 0; y < height; y++, start += rowBytes) {
    // A row equal to the one above brings no new colour (pixel art, flat areas): one memcmp.
    if (y > 0 && data.compare(data, start - rowBytes, start, start, start + rowBytes) === 0) continue;
    for (let p = start, end = start + rowBytes; p < end; p += channels) {
      let colour: number;
      if (channels === 4)
        colour = data[p] * 16777216 + ((data[p + 1] << 16) | (data[p + 2] << 8) | data[p + 3]);
      else {
        colour = data[p];
        for (let c = 1; c < channels; c++) colour = colour * 256 + data[p + c];
      }
      if (colour === last) continue; // runs of one colour
      last = colour;
      if (seen.has(colour)) continue;
      if (seen.size === limit) return false;
      seen.add(colour);
    }
  }
  return true;
}

function formatOf(metadata: Metadata): ImageFormatName | undefined {
  if (metadata.format === 'heif') return metadata.compression === 'av1' ? 'avif' : undefined;
  return (IMAGE_FORMAT_NAMES as string[]).includes(metadata.format ?? '') ? (metadata.format as ImageFormatName) : undefined;
}

/** Lossy WebP of the renditions of pictures. */
const LOSSY_WEBP = { quality: 82, effort: 4 } as const;
/**
 * Lossless WebP of the renditions of images of at most 256 colours (pixel
 * art, icons, flat graphics): WebP's colour-indexed lossless mode keeps them
 * exact and is several times smaller than the lossy mode, which blurs their
 * colour edges (measured on pixelate outputs, 512 × 512: 0.5–19 KB against
 * 3–37 KB); effort 0 costs a third of lossy effort 4 and is within 30 % of the
 * size of higher efforts.
 */
const LOSSLESS_WEBP = { lossless: true, effort: 0 } as const;

/**
 * The web-optimised rendition served as `url` unless `originalAssets=true`:
 * the same pixels (EXIF orientation applied, same width and height) as WebP,
 * lossless for images of at most 256 colours whose pixels the probe kept,
 * lossy otherwise. None for WebP and GIF originals (already web formats; GIF
 * animation kept as it is), for images beyond WebP's 16383 px limit, or when
 * WebP would not be smaller than the original.
 */
export async function webRendition(bytes: Buffer, image: ProbedImage): Promise<Buffer | undefined> {
  if (image.format === 'webp' || image.format === 'gif') return undefined;
  if (image.width > 16383 || image.height > 16383) return undefined;
  const webp = image.pixels
    ? await fromPixels(image.pixels)
        .webp(hasFewColours(image.pixels) ? LOSSLESS_WEBP : LOSSY_WEBP)
        .toBuffer()
    : await open(bytes).rotate().webp(LOSSY_WEBP).toBuffer();
  return webp.length < bytes.length ? webp : undefined;
}

/** Download conversions (POST /assets/{id}/download): targetFormat → encoder. */
export const TARGET_FORMATS = {
  png: { mimeType: 'image/png', extension: 'png' },
  jpeg: { mimeType: 'image/jpeg', extension: 'jpg' },
  jpg: { mimeType: 'image/jpeg', extension: 'jpg' },
  webp: { mimeType: 'image/webp', extension: 'webp' },
  avif: { mimeType: 'image/avif', extension: 'avif' },
  tiff: { mimeType: 'image/tiff', extension: 'tiff' },
  gif: { mimeType: 'image/gif', extension: 'gif' },
} as const satisfies Record<string, ImageFormat>;
export type TargetFormat = keyof typeof TARGET_FORMATS;
export const TARGET_FORMAT_NAMES = Object.keys(TARGET_FORMATS) as TargetFormat[];

/** Converts an image, orientation applied; JPEG (no alpha channel) is flattened onto white. */
export async function convertImage(bytes: Buffer, target: TargetFormat): Promise<Buffer> {
  const animated = target === 'gif' || target === 'webp';
  const pipeline = open(bytes, animated).rotate();
  switch (target) {
    case 'png':
      return pipeline.png({ compressionLevel: 9 }).toBuffer();
    case 'jpeg':
    case 'jpg':
      return pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: 90, mozjpeg: true }).toBuffer();
    case 'webp':
      return pipeline.webp({ quality: 90 }).toBuffer();
    case 'avif':
      return pipeline.avif({ quality: 60, effort: 2 }).toBuffer();
    case 'tiff':
      return pipeline.tiff({ compression: 'lzw' }).toBuffer();
    case 'gif':
      return pipeline.gif().toBuffer();
  }
}
