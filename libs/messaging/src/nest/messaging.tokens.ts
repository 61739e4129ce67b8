import { Inject } from '@nestjs/common';

export const MESSAGING_OPTIONS = Symbol('MESSAGING_OPTIONS');
/** The process's `Publisher` (Kafka producer, or the in-process bus). */
export const MESSAGING_PUBLISHER = Symbol('MESSAGING_PUBLISHER');
/** The process's transport strategy (`EventServer`); `connectMessaging(app)` connects it. */
export const MESSAGING_SERVER = Symbol('MESSAGING_SERVER');

/** Token of one service's `Outbox`, for code that sees several services' modules at once. */
export function outboxToken(schema: string): string {
  return `messaging:outbox:${schema}`;
}

/** Token of one service's `OutboxRelay` (status and backlog for metrics). */
export function relayToken(schema: string): string {
  return `messaging:relay:${schema}`;
}

/** `@InjectOutbox('jobs') outbox: Outbox` — the explicit form of injecting `Outbox`. */
export const InjectOutbox = (schema: string): ParameterDecorator => Inject(outboxToken(schema));
