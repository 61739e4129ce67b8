import { encodeTimeAndId, pageToken, timeAndId, type TimeAndId } from '@genasset/persistence';
import { ID_PATTERNS } from '../common/limits';

/** Where the previous page ended, in the list order (created_at DESC, id DESC). */
export type PageCursor = TimeAndId;

const readCursor = timeAndId(ID_PATTERNS.collection);

/** The nextPaginationToken after `cursor` (the one token format: pageToken). */
export function encodePageToken(cursor: PageCursor): string {
  return encodeTimeAndId(cursor);
}

/** The position of a nextPaginationToken; 400 naming paginationToken for anything else. */
export function decodePageToken(token: string): PageCursor {
  return pageToken.decode(token, readCursor);
}
