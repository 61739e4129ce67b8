import sharp from 'sharp';
import { ApiError } from '@genasset/http';
import { formatBytes, GENERATE_LIMITS } from '../limits';

const DATA_URL =
  /^data:([A-Za-z0-9.+-]{1,60}\/[A-Za-z0-9.+-]{1,80})((?:;[A-Za-z0-9.+-]{1,40}=[^;,]{1,80})*);base64,/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Formats a data-URL image may have (what asset-service accepts on upload), sniffed from the bytes. */
const IMAGE_FORMATS: Record<string, { contentType: string; extension: string }> = {
  png: { contentType: 'image/png', extension: 'png' },
  jpeg: { contentType: 'image/jpeg', extension: 'jpg' },
  webp: { contentType: 'image/webp', extension: 'webp' },
  gif: { contentType: 'image/gif', extension: 'gif' },
  avif: { contentType: 'image/avif', extension: 'avif' },
  tiff: { contentType: 'image/tiff', extension: 'tiff' },
};

export interface DecodedInput {
  /** Dotted path of the field (`mask`, `ipAdapterImages.1`, `patch.image`). */
  path: string;
  bytes: Buffer;
  contentType: string;
  extension: string;
  /** Images only (read from the header). */
  width?: number;
  height?: number;
}

function invalid(path: string, message: string): ApiError {
  return ApiError.validation([{ field: path, messages: [message] }]);
}

/**
 * Decodes a base64 data URL. The size is checked from the length before
 * anything is allocated (413 naming the field); the payload must be strict
 * base64 (400 naming the field).
 */
export function decodeDataUrl(value: string, path: string): { declaredType: string; bytes: Buffer } {
  const header = DATA_URL.exec(value);
  if (!header) throw invalid(path, `${path} must be a base64 data URL (data:<type>;base64,<data>)`);
  let payload = value.slice(header[0].length);
  if (/\s/.test(payload)) payload = payload.replace(/\s+/g, '');
  if (payload.length === 0) throw invalid(path, `${path} is an empty data URL`);
  const padding = payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0;
  const size = Math.floor((payload.length * 3) / 4) - padding;
  if (size > GENERATE_LIMITS.maxImageBytes) {
    throw ApiError.payloadTooLarge(
      `${path} is ${formatBytes(size)}; the limit is ${formatBytes(GENERATE_LIMITS.maxImageBytes)}`,
      {
        field: path,
        size,
        limit: GENERATE_LIMITS.maxImageBytes,
      },
    );
  }
  if (!BASE64.test(payload) || payload.length % 4 !== 0) throw invalid(path, `${path} is not valid base64`);
  return { declaredType: header[1].toLowerCase(), bytes: Buffer.from(payload, 'base64') };
}

/**
 * An image data URL, decoded and sniffed: the declared media type is not
 * trusted, the header of the bytes must be a supported image within the pixel
 * limit (the pixels themselves are the executor's to decode).
 */
export async function decodeImageDataUrl(value: string, path: string): Promise<DecodedInput> {
  const { bytes } = decodeDataUrl(value, path);
  let metadata: Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>;
  try {
    metadata = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new ApiError(
      400,
      'invalid_image',
      `${path} is not a supported image: its bytes are not PNG, JPEG, WebP, GIF, AVIF or TIFF`,
      { field: path },
    );
  }
  const name =
    metadata.format === 'heif' && metadata.compression === 'av1' ? 'avif' : (metadata.format ?? '');
  const format = IMAGE_FORMATS[name];
  if (!format) {
    throw new ApiError(
      400,
      'invalid_image',
      `${path} is a ${metadata.format} image, which is not supported; use PNG, JPEG, WebP, GIF, AVIF or TIFF`,
      {
        field: path,
        detectedFormat: metadata.format,
      },
    );
  }
  const width = metadata.autoOrient?.width ?? metadata.width;
  const height = metadata.autoOrient?.height ?? metadata.height;
  if (!width || !height)
    throw new ApiError(400, 'invalid_image', `${path} has no readable dimensions`, { field: path });
  if (width * height > GENERATE_LIMITS.maxImagePixels) {
    throw new ApiError(
      400,
      'invalid_image',
      `${path} is ${width}×${height} pixels; the limit is ${GENERATE_LIMITS.maxImagePixels} pixels`,
      { field: path },
    );
  }
  return { path, bytes, ...format, width, height };
}

const EXTENSION = /^[a-z0-9]{1,10}$/;

/** Any data URL (custom models take audio, video, 3D…): decoded, typed by its declaration. */
export function decodeAnyDataUrl(value: string, path: string): DecodedInput {
  const { declaredType, bytes } = decodeDataUrl(value, path);
  const subtype = declaredType.split('/')[1].replace(/^x-/, '').split('+')[0];
  return { path, bytes, contentType: declaredType, extension: EXTENSION.test(subtype) ? subtype : 'bin' };
}
