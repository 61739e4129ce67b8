import { ApiError } from '@genasset/http';
import { cursorTime } from '@genasset/persistence';

/** The nextPaginationToken after `row` in a list sorted by `time` (its createdAt unless said). */
export function encodeToken(row: { createdAt: Date; id: string }, time: Date = row.createdAt): string {
  return Buffer.from(JSON.stringify([time.getTime(), row.id])).toString('base64url');
}

/** The position of a nextPaginationToken; 400 naming paginationToken for anything else. */
export function decodeToken(token: string): { createdAt: Date; id: string } {
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
    typeof parsed[1] !== 'string'
  )
    throw ApiError.validation([
      {
        field: 'paginationToken',
        messages: ['paginationToken is not a token returned by this API (nextPaginationToken)'],
      },
    ]);
  return { createdAt: cursorTime(parsed[0])!, id: parsed[1] };
}
