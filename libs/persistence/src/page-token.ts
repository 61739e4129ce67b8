import { ApiError } from '@genasset/http';
import { cursorTime } from './cursor-time';

/**
 * The one pagination token of the API (`paginationToken` in, `nextPaginationToken` out): base64url
 * JSON of where the previous page ended. Keyset positions rather than offsets, so rows written
 * meanwhile never shift or repeat a page; opaque to clients but not secret (every query stays
 * scoped to the caller, whatever a token says), just validated: each list says, with a reader, which
 * positions it issues, and anything else is a 400 naming the field, never a query that fails.
 */
export const pageToken = {
  encode(position: unknown): string {
    return Buffer.from(JSON.stringify(position)).toString('base64url');
  },

  /** The position in `token` as `read` accepts it; undefined for anything this API did not issue. */
  read<T>(token: string, read: (value: unknown) => T | undefined): T | undefined {
    let value: unknown;
    try {
      value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    } catch {
      return undefined;
    }
    try {
      return read(value);
    } catch (error) {
      // A reader's own 400 (a token of another ordering) stands; a shape it did not expect is foreign.
      if (error instanceof ApiError) throw error;
      return undefined;
    }
  },

  /** As `read`, with a 400 naming `field` for a token this API did not issue. */
  decode<T>(token: string, read: (value: unknown) => T | undefined, field = 'paginationToken'): T {
    const position = pageToken.read(token, read);
    if (position === undefined) throw invalidPageToken(field);
    return position;
  },
};

/** The 400 for a token this API did not issue. */
export function invalidPageToken(field = 'paginationToken'): ApiError {
  return ApiError.validation([{ field, messages: [`${field} is not a token this API issued`] }]);
}

/** The commonest position: the (time, id) of the last row, in (time desc, id desc) order. */
export interface TimeAndId {
  createdAt: Date;
  id: string;
}

/** `[ISO time, id]`: the token of a (time, id) position. */
export function encodeTimeAndId(position: TimeAndId): string {
  return pageToken.encode([position.createdAt.toISOString(), position.id]);
}

/**
 * The reader of encodeTimeAndId's tokens (and of the Unix-ms form issued before): a time a stored
 * row could have (cursorTime) and an id matching `idPattern`, so a forged id (a NUL byte, 5,000
 * characters, another kind's id) never reaches the database.
 */
export function timeAndId(idPattern: RegExp): (value: unknown) => TimeAndId | undefined {
  return (value) => {
    if (!Array.isArray(value) || value.length !== 2) return undefined;
    const [at, id] = value as unknown[];
    const createdAt = cursorTime(at);
    if (!createdAt || typeof id !== 'string' || !idPattern.test(id)) return undefined;
    return { createdAt, id };
  };
}
