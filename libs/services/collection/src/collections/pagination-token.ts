import { ApiError } from '@genasset/http';
import { cursorTime } from '@genasset/persistence';
import { ID_PATTERNS } from '../common/limits';

/** Where the previous page ended, in the list order (created_at DESC, id DESC). */
export interface PageCursor {
  createdAt: Date;
  id: string;
}

/**
 * Opaque keyset cursor: the last row's (createdAt, id). Keyset rather than
 * offset so a page never repeats or skips rows when collections are created or
 * deleted between calls. Not signed: it only positions the caller inside their
 * own project's rows, so a forged one reveals nothing.
 */
export function encodePageToken(cursor: PageCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt.getTime(), cursor.id])).toString('base64url');
}

export function decodePageToken(token: string): PageCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 2 ||
    typeof parsed[0] !== 'number' ||
    !cursorTime(parsed[0]) ||
    typeof parsed[1] !== 'string' ||
    !ID_PATTERNS.collection.test(parsed[1])
  ) {
    throw ApiError.validation([
      {
        field: 'paginationToken',
        messages: ['paginationToken is not a token returned by this API (nextPaginationToken)'],
      },
    ]);
  }
  return { createdAt: cursorTime(parsed[0])!, id: parsed[1] };
}
