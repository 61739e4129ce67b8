import { ApiError } from '@genasset/http';
import { paginationToken } from './pagination-token';

describe('paginationToken', () => {
  const cursor = { order: 'createdAt:desc', at: '2025-01-01T00:00:00.123Z', id: 'asset_01' };

  it('round-trips an opaque token', () => {
    const token = paginationToken.encode(cursor);
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(paginationToken.decode(token, 'createdAt:desc')).toEqual(cursor);
  });

  it.each(['', 'garbage', Buffer.from('[]').toString('base64url'), Buffer.from('{"o":"createdAt:desc","t":"nope","i":"x"}').toString('base64url')])(
    'refuses %j with a 400',
    (token) => {
      expect(() => paginationToken.decode(token, 'createdAt:desc')).toThrow(ApiError);
    },
  );

  // Date.parse accepts these, PostgreSQL's timestamptz does not (or not as meant): 400, never a 500.
  it.each(['+275760-09-13T00:00:00.000Z', '-271821-04-20T00:00:00.000Z', 'Tue, 01 Jan 2030 00:00:00 GMT', '2026-02-30T00:00:00.000Z', '0'])(
    'refuses a token whose timestamp %j is not one it issued',
    (at) => {
      const token = Buffer.from(JSON.stringify({ o: 'createdAt:desc', t: at, i: 'asset_01' })).toString('base64url');
      expect(() => paginationToken.decode(token, 'createdAt:desc')).toThrow(ApiError);
    },
  );

  it('refuses a token of another ordering', () => {
    expect(() => paginationToken.decode(paginationToken.encode(cursor), 'updatedAt:desc')).toThrow(/another sortBy/);
  });
});
