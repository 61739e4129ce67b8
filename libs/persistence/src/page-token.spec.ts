import { ApiError } from '@genasset/http';
import { encodeTimeAndId, invalidPageToken, pageToken, timeAndId } from './page-token';

const token = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const readJob = timeAndId(/^job_[0-9A-Z]{26}$/);
const JOB = 'job_01JD0000000000000000000000';

function fieldsOf(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error instanceof ApiError ? [error.getStatus(), error.infos] : error;
  }
  return 'accepted';
}

describe('pageToken', () => {
  it('round-trips a position as opaque base64url JSON', () => {
    const encoded = pageToken.encode({ o: 3 });
    expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(pageToken.decode(encoded, (value) => value)).toEqual({ o: 3 });
  });

  it.each([
    ['not base64 JSON', '%%%'],
    ['empty', ''],
    ['a shape the reader refuses', token({ a: 1 })],
  ])('refuses %s with a 400 naming the field', (_label, value) => {
    const read = (v: unknown) => ((v as { o?: unknown })?.o === 3 ? 3 : undefined);
    expect(pageToken.read(value, read)).toBeUndefined();
    expect(fieldsOf(() => pageToken.decode(value, read))).toEqual([
      400,
      { fields: { paginationToken: ['paginationToken is not a token this API issued'] } },
    ]);
    expect(fieldsOf(() => pageToken.decode(value, read, 'nextToken'))).toEqual([
      400,
      { fields: { nextToken: ['nextToken is not a token this API issued'] } },
    ]);
  });

  it("treats a reader that stumbles over a foreign shape as a foreign token, and keeps a reader's own 400", () => {
    const stumbles = (v: unknown) => (v as { a: { b: string } }).a.b;
    expect(pageToken.read(token({}), stumbles)).toBeUndefined();
    const refuses = () => {
      throw ApiError.validation([{ field: 'paginationToken', messages: ['another ordering'] }]);
    };
    expect(fieldsOf(() => pageToken.decode(token({}), refuses))).toEqual([
      400,
      { fields: { paginationToken: ['another ordering'] } },
    ]);
    expect(invalidPageToken().getStatus()).toBe(400);
  });
});

describe('time-and-id positions', () => {
  it('round-trip, and read the Unix-ms form issued before', () => {
    const position = { createdAt: new Date('2026-11-22T12:00:00.123Z'), id: JOB };
    expect(pageToken.decode(encodeTimeAndId(position), readJob)).toEqual(position);
    expect(pageToken.decode(token([position.createdAt.getTime(), JOB]), readJob)).toEqual(position);
  });

  it.each([
    ['a NUL in the id', ['2026-11-22T12:00:00.000Z', 'job_\u0000']],
    ['an id of another kind', ['2026-11-22T12:00:00.000Z', 'asset_01JD0000000000000000000000']],
    ['a rolled-over date', ['2026-02-30T12:00:00.000Z', JOB]],
    ['a time PostgreSQL cannot hold', ['+275760-09-13T00:00:00.000Z', JOB]],
    ['a non-integer time', [1.5, JOB]],
    ['a third element', ['2026-11-22T12:00:00.000Z', JOB, 'x']],
    ['an object', { t: '2026-11-22T12:00:00.000Z', i: JOB }],
  ])('refuses %s', (_label, value) => {
    expect(pageToken.read(token(value), readJob)).toBeUndefined();
  });
});
