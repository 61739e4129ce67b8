import { ApiError } from '@genasset/http';
import { formatBytes } from './limits';

const DATA_URL = /^data:([^,]*),/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/**
 * Decodes an image given as a data URL (`data:image/png;base64,…`) or bare
 * base64 (standard or URL-safe alphabet). The declared media type of a data
 * URL is ignored: the content is sniffed later. The size is checked from the
 * length before anything is allocated.
 * @throws ApiError 400 when not base64, 413 naming the limit when too large
 */
export function decodeBase64Payload(value: string, field: string, maxBytes: number): Buffer {
  let payload = value;
  const dataUrl = DATA_URL.exec(payload);
  if (dataUrl) {
    if (!/;base64$/i.test(dataUrl[1])) {
      throw ApiError.validation([{ field, messages: [`${field} must be a base64 data URL (data:<type>;base64,<data>)`] }]);
    }
    payload = payload.slice(dataUrl[0].length);
  }
  if (/\s/.test(payload)) payload = payload.replace(/\s+/g, '');
  if (payload.length === 0) throw ApiError.validation([{ field, messages: [`${field} is empty`] }]);
  const standard = BASE64.test(payload);
  if ((!standard && !BASE64URL.test(payload)) || payload.length % 4 === 1) {
    throw ApiError.validation([{ field, messages: [`${field} must be a data URL or a base64-encoded string`] }]);
  }
  const padding = payload.endsWith('==') ? 2 : payload.endsWith('=') ? 1 : 0;
  const size = Math.floor((payload.length * 3) / 4) - padding;
  if (size > maxBytes) {
    throw ApiError.payloadTooLarge(`${field} is ${formatBytes(size)}; the limit is ${formatBytes(maxBytes)}`, {
      field,
      size,
      limit: maxBytes,
    });
  }
  return Buffer.from(payload, standard ? 'base64' : 'base64url');
}
