import { ApiError } from '@genasset/http';
import { cursorTime, pageToken as token } from '@genasset/persistence';

/** A keyset position: the last row's sort value and id, plus the ordering it belongs to. */
export interface Cursor {
  /** Which ordering issued it: a token is refused under another one. */
  order: string;
  /** ISO timestamp of the sort column (ms precision, as stored). */
  at: string;
  id: string;
}

/** The asset lists' positions, in the one token format (pageToken): `{o, t, i}`. */
export const paginationToken = {
  encode(cursor: Cursor): string {
    return token.encode({ o: cursor.order, t: cursor.at, i: cursor.id });
  },

  decode(value: string, order: string): Cursor {
    return token.decode(value, (parsed) => {
      const { o, t, i } = (parsed ?? {}) as Record<string, unknown>;
      if (typeof o !== 'string' || typeof t !== 'string' || typeof i !== 'string' || !cursorTime(t)) return undefined;
      if (o !== order) {
        throw ApiError.validation([
          { field: 'paginationToken', messages: ['paginationToken belongs to another sortBy/sortDirection; repeat the first request\'s sort parameters'] },
        ]);
      }
      return { order: o, at: t, id: i };
    });
  },
};
