import { cursorTime } from './cursor-time';

describe('cursorTime', () => {
  it('reads back the times tokens are written with: Unix ms and toISOString()', () => {
    const at = new Date('2026-11-22T08:55:49.123Z');
    expect(cursorTime(at.getTime())).toEqual(at);
    expect(cursorTime(at.toISOString())).toEqual(at);
    expect(cursorTime('0001-01-01T00:00:00.000Z')).toEqual(new Date('0001-01-01T00:00:00.000Z'));
    expect(cursorTime('9999-12-31T23:59:59.999Z')).toEqual(new Date('9999-12-31T23:59:59.999Z'));
  });

  it.each([
    ['beyond year 9999 (ms)', 8.64e15],
    ['before year 1 (ms)', -8e15],
    ['an unsafe integer', Number.MAX_SAFE_INTEGER + 2],
    ['a fraction', 1.5],
    ['a six-digit year', '+275760-09-13T00:00:00.000Z'],
    ['another format', 'Sun, 22 Nov 2026 08:55:49 GMT'],
    ['a date that rolls over', '2026-02-30T00:00:00.000Z'],
    ['no milliseconds', '2026-11-22T08:55:49Z'],
    ['a numeric string', '0'],
    ['null', null],
  ])('refuses %s', (_label, value) => {
    expect(cursorTime(value)).toBeUndefined();
  });
});
