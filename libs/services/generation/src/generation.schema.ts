import { join } from 'node:path';
import { MESSAGING_MIGRATIONS } from '@genasset/messaging';
import type { SchemaDefinition } from '@genasset/persistence';

export const GENERATION_SERVICE = 'generation-service';

/** The generation-service's own PostgreSQL schema: no other service reads or writes it. */
export const GENERATION_SCHEMA: SchemaDefinition = {
  schema: 'generation',
  migrations: [MESSAGING_MIGRATIONS, { source: 'generation', dir: join(__dirname, '../prisma/migrations') }],
  prismaSchema: join(__dirname, '../prisma/schema.prisma'),
};
