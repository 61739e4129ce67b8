import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import type { EventDefinition } from './define-event';
import { EventEnvelope } from './event-envelope';
import { passesCompiledChecks } from './payload-check';
import { toPayloadInstance } from './payload-instance';
import { mayHoldUnstorable, unstorableMessage, unstorablePath } from '../text/unstorable';

export type EnvelopeCheck =
  { ok: true; envelope: EventEnvelope; definition?: EventDefinition } | { ok: false; reason: string };

function describe(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((e) => {
    const path = prefix ? `${prefix}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((m) => `${path}: ${m}`);
    return [...own, ...describe(e.children ?? [], path)];
  });
}

const EVENT_ID = /^evt_[0-9A-Z]{26}$/;
/** What `Date.prototype.toISOString()` writes (createEnvelope's `occurredAt`). */
const CANONICAL_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The number written by the digits at `text[from, from + length)` (the regex checked they are digits). */
function digits(text: string, from: number, length: number): number {
  let n = 0;
  for (let i = from; i < from + length; i++) n = n * 10 + text.charCodeAt(i) - 48;
  return n;
}

/** A canonical instant naming a real moment (no 2026-02-30, no 24:00); a Date round trip costs ~3 µs. */
function isRealInstant(text: string): boolean {
  if (!CANONICAL_INSTANT.test(text)) return false;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  return day <= days;
}

const shortString = (value: unknown, max: number): boolean => typeof value === 'string' && value.length <= max;
const optionalString = (value: unknown): boolean => value === undefined || typeof value === 'string';

/**
 * A hand-written check that accepts only envelopes as our producers write them,
 * each of which the decorated EventEnvelope class accepts too; anything else
 * (a missing field, another timestamp form, a null trace…) goes through the
 * class, which decides and names the faults. Why by hand: class-transformer +
 * class-validator cost ~13 µs per envelope, the largest single item of a
 * consumer's CPU per event (bench/outbox), where this costs well under 1 µs.
 */
function isCanonicalEnvelope(value: object): value is EventEnvelope {
  const e = value as Record<string, unknown>;
  if (typeof e.id !== 'string' || !EVENT_ID.test(e.id)) return false;
  if (!shortString(e.type, 200) || !shortString(e.producer, 100) || !shortString(e.key, 200)) return false;
  if (typeof e.occurredAt !== 'string' || !isRealInstant(e.occurredAt)) return false;
  if (typeof e.data !== 'object' || e.data === null || Array.isArray(e.data)) return false;
  if (e.trace === undefined) return true;
  const t = e.trace as Record<string, unknown> | null;
  return typeof t === 'object' && t !== null && !Array.isArray(t) && optionalString(t.traceparent) && optionalString(t.tracestate) && optionalString(t.requestId);
}

/**
 * Parses and validates one raw message: the envelope first, then, when the
 * type is known for the topic, its payload. An unknown type on a known topic is
 * valid (payloads and event types are extensible) and comes back without a definition.
 */
export function validateEnvelope(
  raw: Buffer | string | null,
  topic: string,
  registry: ReadonlyMap<string, EventDefinition>,
): EnvelopeCheck {
  if (raw === null) return { ok: false, reason: 'message has no value' };
  const text = raw.toString();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `message is not JSON: ${(error as Error).message}` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, reason: 'message is not a JSON object' };
  }
  // Text no handler could store (a NUL, half a surrogate pair) would fail every retry: refused here,
  // naming where it is. One scan of the text; the walk only when an escape makes it necessary.
  if (mayHoldUnstorable(text)) {
    const at = unstorablePath(parsed);
    if (at !== undefined) return { ok: false, reason: unstorableMessage(at || '(envelope)') };
  }
  let envelope: EventEnvelope;
  if (isCanonicalEnvelope(parsed)) {
    envelope = parsed;
  } else {
    envelope = plainToInstance(EventEnvelope, parsed);
    const envelopeErrors = validateSync(envelope, { forbidUnknownValues: false });
    if (envelopeErrors.length)
      return { ok: false, reason: `invalid envelope: ${describe(envelopeErrors).join('; ')}` };
  }

  const definition = registry.get(envelope.type);
  if (!definition) return { ok: true, envelope };
  if (definition.topic !== topic) {
    return { ok: false, reason: `event type ${envelope.type} belongs on ${definition.topic}, not ${topic}` };
  }
  const data = toPayloadInstance(definition.payload as new () => object, envelope.data as object);
  // The compiled plan runs the decorators' own checks; class-validator decides (and names the faults) otherwise.
  if (!passesCompiledChecks(data as object)) {
    const dataErrors = validateSync(data as object, { whitelist: false, forbidUnknownValues: false });
    if (dataErrors.length)
      return { ok: false, reason: `invalid ${envelope.type} data: ${describe(dataErrors, 'data').join('; ')}` };
  }
  envelope.data = data;
  return { ok: true, envelope, definition };
}
