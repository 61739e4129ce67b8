import { ApiError } from '@genasset/http';
import { cursorTime } from '@genasset/persistence';
import type { JobCursor } from './job.repository';

/** What `prefixedId('job')` makes: a forged id never reaches the database (a NUL byte was a 500). */
const JOB_ID = /^job_[0-9A-Z]{26}$/;

/** Opaque keyset cursor: the (createdAt, id) of the last job of a page. */
export function encodeCursor(cursor: JobCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt.toISOString(), cursor.id])).toString('base64url');
}

/** The cursor in a token, or a 400 naming `paginationToken`. */
export function decodeCursor(token: string): JobCursor {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown[];
    const date = cursorTime(createdAt);
    if (date && typeof createdAt === 'string' && typeof id === 'string' && JOB_ID.test(id)) {
      return { createdAt: date, id };
    }
  } catch {
    // reported below
  }
  throw ApiError.validation([
    { field: 'paginationToken', messages: ['paginationToken is not a token from a previous response'] },
  ]);
}
