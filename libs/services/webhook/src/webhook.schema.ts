import { join } from 'node:path';
import { MESSAGING_MIGRATIONS } from '@genasset/messaging';
import type { SchemaDefinition } from '@genasset/persistence';

export const WEBHOOK_SERVICE = 'webhook-dispatcher';

/** The webhook-dispatcher's own PostgreSQL schema: no other service reads or writes it. */
export const WEBHOOK_SCHEMA: SchemaDefinition = {
  schema: 'webhooks',
  migrations: [MESSAGING_MIGRATIONS, { source: 'webhooks', dir: join(__dirname, '../prisma/migrations') }],
  prismaSchema: join(__dirname, '../prisma/schema.prisma'),
};
