import { join } from 'node:path';
import { MESSAGING_MIGRATIONS } from '@genasset/messaging';
import type { SchemaDefinition } from '@genasset/persistence';

export const ASSET_SERVICE = 'asset-service';

/** The asset-service's own PostgreSQL schema: no other service reads or writes it. */
export const ASSET_SCHEMA: SchemaDefinition = {
  schema: 'assets',
  migrations: [MESSAGING_MIGRATIONS, { source: 'assets', dir: join(__dirname, '../prisma/migrations') }],
  prismaSchema: join(__dirname, '../prisma/schema.prisma'),
};
