import type { FieldError } from '@genasset/http';
import { filtersDigest, timeWindow } from './delivery-filters';

const window = (after?: string, before?: string) => {
  const errors: FieldError[] = [];
  const result = timeWindow(
    { name: 'createdAfter', value: after },
    { name: 'createdBefore', value: before },
    errors,
  );
  return { ...result, errors };
};

describe('delivery filters', () => {
  it('reads a half-open window, either end optional', () => {
    expect(window('2026-11-21T13:00:00Z', '2026-11-22T00:00:00.000+02:00')).toEqual({
      from: new Date('2026-11-21T13:00:00.000Z'),
      to: new Date('2026-11-21T22:00:00.000Z'),
      errors: [],
    });
    expect(window()).toEqual({ from: undefined, to: undefined, errors: [] });
  });

  it('names the field: an end not after the start, a year PostgreSQL cannot hold', () => {
    expect(window('2026-11-21T13:00:00Z', '2026-11-21T13:00:00Z').errors).toEqual([
      { field: 'createdBefore', messages: ['createdBefore must be later than createdAfter'] },
    ]);
    expect(window('+275760-09-13T00:00:00.000Z').errors.map((e) => e.field)).toEqual(['createdAfter']);
  });

  it('digests the filters: none gives none, any change gives another digest', () => {
    expect(filtersDigest({})).toBeUndefined();
    const base = { status: 'failed' as const, from: new Date(1000) };
    const digest = filtersDigest(base);
    expect(digest).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(filtersDigest({ ...base })).toBe(digest);
    for (const other of [
      { ...base, status: 'success' as const },
      { ...base, type: 'generation.completed' },
      { ...base, from: new Date(1001) },
      { ...base, to: new Date(5000) },
    ])
      expect(filtersDigest(other)).not.toBe(digest);
  });
});
