import { createHash } from 'node:crypto';
import { ApiError } from '@genasset/http';
import { formatBytes, LIMITS } from './limits';

export interface CanvasContent {
  /** The JSON text exactly as sent (what snapshots and the object keep). */
  raw: string;
  bytes: Buffer;
  /** sha256 hex of the bytes. */
  hash: string;
  properties: { size: number; format: 'json' };
}

/**
 * A canvas is stringified JSON holding an object or an array. It is stored
 * byte for byte as sent; parsing only proves it is JSON.
 * @throws ApiError 413 naming the limit, 400 when not JSON
 */
export function parseCanvas(raw: string, field: string): CanvasContent {
  const bytes = Buffer.from(raw, 'utf8');
  if (bytes.length > LIMITS.maxCanvasBytes) {
    throw ApiError.payloadTooLarge(`${field} is ${formatBytes(bytes.length)}; the limit is ${formatBytes(LIMITS.maxCanvasBytes)}`, {
      field,
      size: bytes.length,
      limit: LIMITS.maxCanvasBytes,
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw ApiError.validation([{ field, messages: [`${field} must be stringified JSON (it does not parse)`] }]);
  }
  if (parsed === null || typeof parsed !== 'object') {
    throw ApiError.validation([{ field, messages: [`${field} must be a JSON object or array`] }]);
  }
  return {
    raw,
    bytes,
    hash: createHash('sha256').update(bytes).digest('hex'),
    properties: { size: bytes.length, format: 'json' },
  };
}
