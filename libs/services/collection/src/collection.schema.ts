import { join } from 'node:path';
import { MESSAGING_MIGRATIONS } from '@genasset/messaging';
import type { SchemaDefinition } from '@genasset/persistence';

export const COLLECTION_SERVICE = 'collection-service';

/** The collection-service's own PostgreSQL schema: no other service reads or writes it. */
export const COLLECTION_SCHEMA: SchemaDefinition = {
  schema: 'collections',
  migrations: [MESSAGING_MIGRATIONS, { source: 'collections', dir: join(__dirname, '../prisma/migrations') }],
  prismaSchema: join(__dirname, '../prisma/schema.prisma'),
};
