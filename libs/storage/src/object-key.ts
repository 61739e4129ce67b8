import { InvalidObjectKeyError } from './storage.errors';

export const MAX_KEY_BYTES = 1024;
// C0/C1 controls and DEL: never legitimate in a key, dangerous in paths, URLs and logs.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * The key rules both stores share, so a key accepted by one is accepted by the
 * other: `/`-separated non-empty segments, no `.` or `..`, no leading `/`, no
 * backslash, no control characters, at most 1024 UTF-8 bytes (S3's limit).
 */
export function validateObjectKey(key: string): string {
  if (typeof key !== 'string' || key.length === 0) throw new InvalidObjectKeyError(String(key), 'empty');
  if (Buffer.byteLength(key, 'utf8') > MAX_KEY_BYTES)
    throw new InvalidObjectKeyError(key, `longer than ${MAX_KEY_BYTES} bytes`);
  if (CONTROL.test(key)) throw new InvalidObjectKeyError(key, 'contains control characters');
  if (key.includes('\\')) throw new InvalidObjectKeyError(key, 'contains a backslash');
  if (key.startsWith('/')) throw new InvalidObjectKeyError(key, 'starts with /');
  for (const segment of key.split('/')) {
    if (segment === '') throw new InvalidObjectKeyError(key, 'has an empty path segment');
    if (segment === '.' || segment === '..')
      throw new InvalidObjectKeyError(key, `has a "${segment}" segment`);
  }
  return key;
}

/** Prefixes may be empty or end in `/`, but otherwise follow the key rules. */
export function validateObjectPrefix(prefix: string): string {
  if (prefix === '') return prefix;
  validateObjectKey(prefix.endsWith('/') ? prefix.slice(0, -1) : prefix);
  return prefix;
}

/** Keys percent-encoded segment by segment, `/` kept, for URL paths. */
export function encodeKeyPath(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}
