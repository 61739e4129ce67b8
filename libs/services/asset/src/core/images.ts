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
}

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
  try {
    // Decode every pixel (into a tiny output) so corrupt data fails here, not later.
    await open(bytes, (metadata.pages ?? 1) > 1).resize(8, 8, { fit: 'inside' }).raw().toBuffer();
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
  };
}

function formatOf(metadata: Metadata): ImageFormatName | undefined {
  if (metadata.format === 'heif') return metadata.compression === 'av1' ? 'avif' : undefined;
  return (IMAGE_FORMAT_NAMES as string[]).includes(metadata.format ?? '') ? (metadata.format as ImageFormatName) : undefined;
}

/**
 * The web-optimised rendition served as `url` unless `originalAssets=true`:
 * the same pixels (EXIF orientation applied, same width and height) as WebP.
 * None for WebP and GIF originals (already web formats; GIF animation kept as
 * it is), for images beyond WebP's 16383 px limit, or when WebP would not be
 * smaller than the original.
 */
export async function webRendition(bytes: Buffer, image: ProbedImage): Promise<Buffer | undefined> {
  if (image.format === 'webp' || image.format === 'gif') return undefined;
  if (image.width > 16383 || image.height > 16383) return undefined;
  const webp = await open(bytes).rotate().webp({ quality: 82, effort: 4 }).toBuffer();
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
