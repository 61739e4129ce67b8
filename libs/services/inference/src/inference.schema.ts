import { join } from 'node:path';
import { MESSAGING_MIGRATIONS } from '@genasset/messaging';
import type { SchemaDefinition } from '@genasset/persistence';

export const INFERENCE_SERVICE = 'inference-worker';

/** The inference-worker's own PostgreSQL schema: no other service reads or writes it. */
export const INFERENCE_SCHEMA: SchemaDefinition = {
  schema: 'inference',
  migrations: [MESSAGING_MIGRATIONS],
  prismaSchema: join(__dirname, '../prisma/schema.prisma'),
};
