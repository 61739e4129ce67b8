import { ApiError } from '@genasset/http';
import { cursorTime } from '@genasset/persistence';

/** A keyset position: the last row's sort value and id, plus the ordering it belongs to. */
export interface Cursor {
  /** Which ordering issued it: a token is refused under another one. */
  order: string;
  /** ISO timestamp of the sort column (ms precision, as stored). */
  at: string;
  id: string;
}

/**
 * Opaque tokens (`paginationToken` in, `nextPaginationToken` out): base64url
 * JSON of a keyset position. Not offsets, so rows inserted meanwhile never
 * shift a page; not secret either (every query stays tenant-scoped, whatever
 * a token says), just validated.
 */
export const paginationToken = {
  encode(cursor: Cursor): string {
    return Buffer.from(JSON.stringify({ o: cursor.order, t: cursor.at, i: cursor.id })).toString('base64url');
  },

  decode(token: string, order: string): Cursor {
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    } catch {
      throw invalid();
    }
    const { o, t, i } = (parsed ?? {}) as Record<string, unknown>;
    if (typeof o !== 'string' || typeof t !== 'string' || typeof i !== 'string' || !cursorTime(t)) throw invalid();
    if (o !== order) {
      throw ApiError.validation([
        { field: 'paginationToken', messages: ['paginationToken belongs to another sortBy/sortDirection; repeat the first request\'s sort parameters'] },
      ]);
    }
    return { order: o, at: t, id: i };
  },
};

function invalid(): ApiError {
  return ApiError.validation([{ field: 'paginationToken', messages: ['paginationToken is not a token this API issued'] }]);
}
