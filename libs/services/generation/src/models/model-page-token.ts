import { encodeTimeAndId, pageToken, timeAndId, type TimeAndId } from '@genasset/persistence';

/** Model and workflow ids (`model_…`, `workflow_…`): anything else never reaches the database. */
const readPosition = timeAndId(/^(model|workflow)_[0-9A-Za-z]{1,64}$/);

/** The nextPaginationToken after `row` in a list sorted by `time` (its createdAt unless said). */
export function encodeToken(row: { createdAt: Date; id: string }, time: Date = row.createdAt): string {
  return encodeTimeAndId({ createdAt: time, id: row.id });
}

/** The position of a nextPaginationToken; 400 naming paginationToken for anything else. */
export function decodeToken(token: string): TimeAndId {
  return pageToken.decode(token, readPosition);
}
