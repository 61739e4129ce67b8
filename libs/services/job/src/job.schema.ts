import { join } from 'node:path';
import { MESSAGING_MIGRATIONS } from '@genasset/messaging';
import type { SchemaDefinition } from '@genasset/persistence';

export const JOB_SERVICE = 'job-service';

/** The job-service's own PostgreSQL schema: no other service reads or writes it. */
export const JOB_SCHEMA: SchemaDefinition = {
  schema: 'jobs',
  migrations: [MESSAGING_MIGRATIONS, { source: 'jobs', dir: join(__dirname, '../prisma/migrations') }],
  prismaSchema: join(__dirname, '../prisma/schema.prisma'),
};
