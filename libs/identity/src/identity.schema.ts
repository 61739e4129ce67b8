import { join } from 'node:path';
import type { SchemaDefinition } from '@genasset/persistence';

/** The identity tables: their own PostgreSQL schema, written only through IdentityService. */
export const IDENTITY_SCHEMA: SchemaDefinition = {
  schema: 'identity',
  migrations: [{ source: 'identity', dir: join(__dirname, '../prisma/migrations') }],
  prismaSchema: join(__dirname, '../prisma/schema.prisma'),
};
