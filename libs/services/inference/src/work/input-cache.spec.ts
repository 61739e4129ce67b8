import type { ObjectInfo } from '@genasset/storage';
import { InputCache } from './input-cache';

const info = (key: string, etag: string, contentLength = 3): ObjectInfo => ({
  key,
  contentType: 'image/png',
  contentLength,
  lastModified: new Date('2026-11-21T10:00:00Z'),
  etag,
});

describe('worker input cache', () => {
  it('serves an input again only while storage holds the version it was read at', () => {
    const cache = new InputCache(100);
    cache.set('a', info('a', '"v1"'), Buffer.from('abc'));
    expect(cache.get('a', info('a', '"v1"'))?.bytes.toString()).toBe('abc');
    // Replaced under the same key (new ETag): not served, and forgotten.
    expect(cache.get('a', info('a', '"v2"'))).toBeUndefined();
    expect(cache.has('a')).toBe(false);
  });

  it('serves an object written once (an asset\'s) without a version to compare', () => {
    const cache = new InputCache(100);
    expect(cache.getWrittenOnce('a')).toBeUndefined();
    cache.set('a', info('a', '"v1"'), Buffer.from('abc'));
    expect(cache.getWrittenOnce('a')?.bytes.toString()).toBe('abc');
  });

  it('keeps at most its byte budget, evicting the least recently used first, and never keeps oversized objects', () => {
    const cache = new InputCache(10, 6);
    cache.set('a', info('a', 'a', 4), Buffer.alloc(4));
    cache.set('b', info('b', 'b', 4), Buffer.alloc(4));
    expect(cache.get('a', info('a', 'a', 4))).toBeDefined(); // a is now the most recent
    cache.set('c', info('c', 'c', 4), Buffer.alloc(4));
    expect([cache.has('a'), cache.has('b'), cache.has('c')]).toEqual([true, false, true]);
    cache.set('big', info('big', 'x', 7), Buffer.alloc(7));
    expect(cache.has('big')).toBe(false);
    expect(cache.size).toBe(2);
  });
});
