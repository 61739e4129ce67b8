import { ApiError } from '@genasset/http';
import { decodePageToken, encodePageToken } from './pagination-token';

describe('collection page tokens', () => {
  it('round-trips the cursor', () => {
    const cursor = {
      createdAt: new Date('2026-11-21T13:00:00.123Z'),
      id: 'collection_01JD6Z3Q9V8K2M4N6P8R0T2V4X',
    };
    expect(decodePageToken(encodePageToken(cursor))).toEqual(cursor);
  });

  it.each([
    ['not base64 JSON', '%%%'],
    ['JSON of the wrong shape', Buffer.from('{"a":1}').toString('base64url')],
    ['a foreign id', Buffer.from(JSON.stringify([1, 'asset_X'])).toString('base64url')],
    ['a non-integer time', Buffer.from(JSON.stringify([1.5, 'collection_X'])).toString('base64url')],
    [
      'a time beyond what a Date holds',
      Buffer.from(JSON.stringify([Number.MAX_SAFE_INTEGER, 'collection_X'])).toString('base64url'),
    ],
    [
      'a time before what a Date holds',
      Buffer.from(JSON.stringify([-Number.MAX_SAFE_INTEGER, 'collection_X'])).toString('base64url'),
    ],
  ])('refuses %s with a 400 naming paginationToken', (_label, token) => {
    try {
      decodePageToken(token);
      throw new Error('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).getStatus()).toBe(400);
      expect((error as ApiError).infos).toEqual({
        fields: { paginationToken: [expect.stringContaining('paginationToken')] },
      });
    }
  });
});
