import { ApiError } from '@genasset/http';
import { prefixedId } from '@genasset/contracts';
import { decodeCursor, encodeCursor } from './pagination-token';

const token = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function statusOf(run: () => unknown): number | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof ApiError ? error.getStatus() : -1;
  }
  return undefined;
}

describe('job list paginationToken', () => {
  it('gives back the cursor it encoded', () => {
    const cursor = { createdAt: new Date('2026-11-22T12:00:00.123Z'), id: prefixedId('job') };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
  });

  // A forged id reached the database: a NUL byte was a 500 (PostgreSQL 22021), not a 400.
  it.each([
    ['a NUL in the id', ['2026-11-22T12:00:00.000Z', 'job_\u0000']],
    ['an id that is no job id', ['2026-11-22T12:00:00.000Z', 'job_x; drop']],
    ['a very long id', ['2026-11-22T12:00:00.000Z', `job_${'A'.repeat(5000)}`]],
    ['an id of another kind', ['2026-11-22T12:00:00.000Z', 'asset_01JD0000000000000000000000']],
    ['a bad time', ['2026-02-30T12:00:00.000Z', 'job_01JD0000000000000000000000']],
  ])('refuses %s with 400 naming paginationToken', (_, value) => {
    expect(statusOf(() => decodeCursor(token(value)))).toBe(400);
  });
});
