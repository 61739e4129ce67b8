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

  it('refuses a token of another ordering', () => {
    expect(() => paginationToken.decode(paginationToken.encode(cursor), 'updatedAt:desc')).toThrow(/another sortBy/);
  });
});
