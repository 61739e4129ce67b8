import { join } from 'node:path';

/**
 * The messaging tables (outbox, inbox, dead letters) as a migration source:
 * each service adds it to its `SchemaDefinition`, so the tables live in the
 * service's own schema, beside the state they commit with.
 */
export const MESSAGING_MIGRATIONS = { source: 'messaging', dir: join(__dirname, '../../sql') } as const;

/** Tables owned by this library; schema drift checks of a service ignore them. */
export const MESSAGING_TABLES = ['outbox_events', 'inbox_events', 'dead_letters'] as const;

/** NOTIFY channel on which a schema's outbox announces new rows (delivered at commit). */
export function outboxChannel(schema: string): string {
  return `${schema}_outbox`;
}
