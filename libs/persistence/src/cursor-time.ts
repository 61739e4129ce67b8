/** 0001-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z: the years a 4-digit ISO timestamp writes. */
const EARLIEST = new Date('0001-01-01T00:00:00.000Z').getTime();
const LATEST = new Date('9999-12-31T23:59:59.999Z').getTime();

/**
 * The time of a keyset pagination cursor read back from a client's token, or
 * undefined when it is not one a stored row could have written: Unix ms (a
 * safe integer) or an ISO timestamp exactly as `toISOString()` writes it,
 * within years 1–9999. Anything else JavaScript can hold as a Date (year
 * 275760, 271821 BC) is outside what PostgreSQL or the ORM accept, and the
 * page query would fail with a 500 instead of the 400 a foreign token gets.
 */
export function cursorTime(value: unknown): Date | undefined {
  let time: number;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) return undefined;
    time = value;
  } else if (typeof value === 'string') {
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(value)) return undefined;
    time = Date.parse(value);
    // Rolled-over dates (Feb 30) parse to another day: not what we wrote.
    if (Number.isNaN(time) || new Date(time).toISOString() !== value) return undefined;
  } else return undefined;
  return time >= EARLIEST && time <= LATEST ? new Date(time) : undefined;
}
