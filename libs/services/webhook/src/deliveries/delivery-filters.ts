import { createHash } from 'node:crypto';
import type { FieldError } from '@genasset/http';
import { cursorTime } from '@genasset/persistence';
import type { DeliveryStatus } from './dto/webhook-event.response';

/** What the delivery log is filtered by; every field optional. Times are a half-open window [from, to). */
export interface DeliveryFilters {
  status?: DeliveryStatus;
  type?: string;
  /** createdAt ≥ from */
  from?: Date;
  /** createdAt < to */
  to?: Date;
}

/**
 * A time window from two optional ISO 8601 query or body values (already
 * checked as ISO 8601 by the DTO), named as the client named them so a 400
 * points at the right field: the start inclusive, the end exclusive, the end
 * after the start, both within the years PostgreSQL and our timestamps hold.
 */
export function timeWindow(
  start: { name: string; value?: string },
  end: { name: string; value?: string },
  errors: FieldError[],
): { from?: Date; to?: Date } {
  const from = time(start, errors);
  const to = time(end, errors);
  if (from && to && to.getTime() <= from.getTime())
    errors.push({ field: end.name, messages: [`${end.name} must be later than ${start.name}`] });
  return { from, to };
}

function time(field: { name: string; value?: string }, errors: FieldError[]): Date | undefined {
  if (field.value === undefined) return undefined;
  // cursorTime's range check: a Date JavaScript holds (year 275760) that PostgreSQL does not is a 400, not a 500.
  const at = cursorTime(new Date(field.value).getTime());
  if (!at)
    errors.push({
      field: field.name,
      messages: [`${field.name} must be a date-time between years 1 and 9999`],
    });
  return at;
}

/**
 * A short digest of the filters, written into pagination tokens so a token
 * is only accepted with the filters of the page that issued it (another
 * filter set would give a page of another list). Undefined without filters:
 * tokens of the unfiltered log keep the form they always had.
 */
export function filtersDigest(filters: DeliveryFilters): string | undefined {
  const key = [filters.status, filters.type, filters.from?.getTime(), filters.to?.getTime()];
  if (key.every((v) => v === undefined)) return undefined;
  return createHash('sha256').update(JSON.stringify(key)).digest('base64url').slice(0, 16);
}
