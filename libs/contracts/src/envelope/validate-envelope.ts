import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import type { EventDefinition } from './define-event';
import { EventEnvelope } from './event-envelope';

export type EnvelopeCheck =
  { ok: true; envelope: EventEnvelope; definition?: EventDefinition } | { ok: false; reason: string };

function describe(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((e) => {
    const path = prefix ? `${prefix}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((m) => `${path}: ${m}`);
    return [...own, ...describe(e.children ?? [], path)];
  });
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
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString());
  } catch (error) {
    return { ok: false, reason: `message is not JSON: ${(error as Error).message}` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, reason: 'message is not a JSON object' };
  }
  const envelope = plainToInstance(EventEnvelope, parsed);
  const envelopeErrors = validateSync(envelope, { forbidUnknownValues: false });
  if (envelopeErrors.length)
    return { ok: false, reason: `invalid envelope: ${describe(envelopeErrors).join('; ')}` };

  const definition = registry.get(envelope.type);
  if (!definition) return { ok: true, envelope };
  if (definition.topic !== topic) {
    return { ok: false, reason: `event type ${envelope.type} belongs on ${definition.topic}, not ${topic}` };
  }
  const data = plainToInstance(definition.payload, envelope.data);
  const dataErrors = validateSync(data as object, { whitelist: false, forbidUnknownValues: false });
  if (dataErrors.length)
    return { ok: false, reason: `invalid ${envelope.type} data: ${describe(dataErrors, 'data').join('; ')}` };
  envelope.data = data;
  return { ok: true, envelope, definition };
}
