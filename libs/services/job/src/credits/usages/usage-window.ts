import { ApiError } from '@genasset/http';

/** Upstream's longest custom period: `startDate`/`endDate` at most 120 days apart. */
export const MAX_USAGE_DAYS = 120;
export const DEFAULT_TIME_RANGE = '30d';
const DAY = 86_400_000;
const HOUR = 3_600_000;
const MINUTE = 60_000;

/** Upstream's granularities, finest first, with the longest period each serves (≤ 168 points). */
const GRANULARITIES = [
  { name: '1m', ms: MINUTE, upTo: 2 * HOUR },
  { name: '5m', ms: 5 * MINUTE, upTo: 12 * HOUR },
  { name: '15m', ms: 15 * MINUTE, upTo: DAY },
  { name: '30m', ms: 30 * MINUTE, upTo: 2 * DAY },
  { name: '1h', ms: HOUR, upTo: 7 * DAY },
  { name: '1d', ms: DAY, upTo: Infinity },
] as const;

export type Granularity = (typeof GRANULARITIES)[number]['name'];

/** The period a usage request covers, cut into points of one granularity. */
export interface UsageWindow {
  /** The first point's start: `from` rounded down to the granularity (UTC). */
  start: Date;
  /** Exclusive end. */
  end: Date;
  granularity: Granularity;
  stepMs: number;
  /** The start of each point, oldest first. */
  points: Date[];
}

const invalid = (field: string, message: string) => ApiError.validation([{ field, messages: [message] }]);

/** `<n>h` or `<n>d`, up to 120 days: the period ending now. */
function rangeMs(timeRange: string): number {
  const match = /^([1-9]\d{0,3})([hd])$/.exec(timeRange);
  const ms = match ? Number(match[1]) * (match[2] === 'd' ? DAY : HOUR) : NaN;
  if (!(ms <= MAX_USAGE_DAYS * DAY)) {
    throw invalid('timeRange', `timeRange must be a number of hours or days (e.g. 24h, 7d), at most ${MAX_USAGE_DAYS}d`);
  }
  return ms;
}

function isoDate(field: string, value: string): Date {
  const date = new Date(value);
  // An ISO 8601 date or date-time (Date.parse alone accepts "March 7").
  if (!/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) || Number.isNaN(date.getTime())) {
    throw invalid(field, `${field} must be an ISO 8601 date`);
  }
  return date;
}

/**
 * The period of `GET /v1/usages`: `startDate` and `endDate` (both or neither,
 * start before end, at most 120 days apart) or else `timeRange` (default 30d)
 * ending now. The granularity follows from the length (upstream: "calculated
 * based on the time range"), the finest that keeps at most 168 points.
 */
export function usageWindow(query: { timeRange?: string; startDate?: string; endDate?: string }, now = new Date()): UsageWindow {
  let from: Date;
  let to: Date;
  if (query.startDate !== undefined || query.endDate !== undefined) {
    if (query.startDate === undefined) throw invalid('startDate', 'startDate is required with endDate');
    if (query.endDate === undefined) throw invalid('endDate', 'endDate is required with startDate');
    from = isoDate('startDate', query.startDate);
    to = isoDate('endDate', query.endDate);
    if (to <= from) throw invalid('endDate', 'endDate must be after startDate');
    if (to.getTime() - from.getTime() > MAX_USAGE_DAYS * DAY) {
      throw invalid('endDate', `startDate and endDate are at most ${MAX_USAGE_DAYS} days apart`);
    }
  } else {
    to = now;
    from = new Date(now.getTime() - rangeMs(query.timeRange ?? DEFAULT_TIME_RANGE));
  }
  const length = to.getTime() - from.getTime();
  const granularity = GRANULARITIES.find((g) => length <= g.upTo) ?? GRANULARITIES[GRANULARITIES.length - 1];
  const start = new Date(Math.floor(from.getTime() / granularity.ms) * granularity.ms);
  const points: Date[] = [];
  for (let t = start.getTime(); t < to.getTime(); t += granularity.ms) points.push(new Date(t));
  return { start, end: to, granularity: granularity.name, stepMs: granularity.ms, points };
}
