import { prefixedId } from '../ids/prefixed-id';
import type { EventEnvelope, TraceHeaders } from './event-envelope';

export type PayloadClass<T> = new () => T;

/** One event type: its name, the topic it travels on and its validated payload class. */
export interface EventDefinition<TType extends string = string, TData extends object = object> {
  readonly type: TType;
  readonly topic: string;
  readonly payload: PayloadClass<TData>;
  /** Which payload field is the aggregate id (the Kafka key). */
  readonly keyField: keyof TData & string;
}

export type DataOf<D> = D extends EventDefinition<string, infer T> ? T : never;

export function defineEvent<TType extends string, TData extends object>(
  definition: EventDefinition<TType, TData>,
): EventDefinition<TType, TData> {
  return Object.freeze(definition);
}

export function newEventId(): string {
  return prefixedId('evt');
}

/** Builds the envelope for one occurrence of an event; the key comes from the payload. */
export function createEnvelope<TData extends object>(
  definition: EventDefinition<string, TData>,
  data: TData,
  options: { producer: string; occurredAt?: Date; id?: string; trace?: TraceHeaders },
): EventEnvelope<TData> {
  return {
    id: options.id ?? newEventId(),
    type: definition.type,
    occurredAt: (options.occurredAt ?? new Date()).toISOString(),
    producer: options.producer,
    key: String(data[definition.keyField]),
    data,
    ...(options.trace ? { trace: options.trace } : {}),
  };
}
