import type { SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { DatabaseConnection } from './database';

/** The constructor shape shared by every generated Prisma 7 client. */
export type PrismaClientClass<T> = new (options: { adapter: SqlDriverAdapterFactory; log?: never[] }) => T;

/** A service's own generated client, bound to the process's database connection. */
export function createPrismaClient<T>(ClientClass: PrismaClientClass<T>, connection: DatabaseConnection): T {
  return new ClientClass({ adapter: connection.prismaAdapter() });
}
