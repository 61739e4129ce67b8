import { encodeTimeAndId, pageToken, timeAndId } from '@genasset/persistence';
import type { JobCursor } from './job.repository';

/** What `prefixedId('job')` makes: a forged id never reaches the database (a NUL byte was a 500). */
const readCursor = timeAndId(/^job_[0-9A-Z]{26}$/);

/** Opaque keyset cursor: the (createdAt, id) of the last job of a page. */
export function encodeCursor(cursor: JobCursor): string {
  return encodeTimeAndId(cursor);
}

/** The cursor in a token, or a 400 naming `paginationToken`. */
export function decodeCursor(token: string): JobCursor {
  return pageToken.decode(token, readCursor);
}
