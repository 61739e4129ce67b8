import { join } from 'node:path';
import { MESSAGING_MIGRATIONS } from '@genasset/messaging';
import type { SchemaDefinition } from '@genasset/persistence';

export const INFERENCE_SERVICE = 'inference-worker';

/** The inference-worker's own PostgreSQL schema (operational state only): no other service reads or writes it. */
export const INFERENCE_SCHEMA: SchemaDefinition = {
  schema: 'inference',
  migrations: [MESSAGING_MIGRATIONS, { source: 'inference', dir: join(__dirname, '../prisma/migrations') }],
  prismaSchema: join(__dirname, '../prisma/schema.prisma'),
};
