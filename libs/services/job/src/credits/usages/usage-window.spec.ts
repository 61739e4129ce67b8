import { ApiError } from '@genasset/http';
import { usageWindow } from './usage-window';

const fieldOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (error) {
    return Object.keys((error as ApiError).infos?.fields ?? {})[0] ?? JSON.stringify((error as ApiError).infos);
  }
  return undefined;
};

describe('usageWindow', () => {
  const now = new Date('2026-11-27T17:43:10.000Z');

  it.each([
    ['1h', '1m', 61],
    ['24h', '15m', 97],
    ['2d', '30m', 97],
    ['7d', '1h', 169],
    ['30d', '1d', 31],
    ['120d', '1d', 121],
  ])('timeRange %s → granularity %s, %i points', (timeRange, granularity, points) => {
    const w = usageWindow({ timeRange }, now);
    expect(w.granularity).toBe(granularity);
    expect(w.points).toHaveLength(points);
    expect(w.end).toEqual(now);
  });

  it('defaults to 30d; startDate/endDate take precedence over timeRange', () => {
    expect(usageWindow({}, now).granularity).toBe('1d');
    const w = usageWindow({ timeRange: '1h', startDate: '2026-11-01', endDate: '2026-11-03T00:00:00Z' }, now);
    expect(w.granularity).toBe('30m');
    expect(w.points[0].toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(w.points).toHaveLength(96);
  });

  it.each([
    [{ timeRange: '121d' }, 'timeRange'],
    [{ timeRange: 'week' }, 'timeRange'],
    [{ startDate: '2026-11-01' }, 'endDate'],
    [{ endDate: '2026-11-01' }, 'startDate'],
    [{ startDate: 'yesterday', endDate: '2026-11-01' }, 'startDate'],
    [{ startDate: '2026-11-02', endDate: '2026-11-01' }, 'endDate'],
    [{ startDate: '2026-01-01', endDate: '2026-06-01' }, 'endDate'],
  ])('%j → 400 naming %s', (query, field) => {
    expect(fieldOf(() => usageWindow(query, now))).toBe(field);
  });
});
