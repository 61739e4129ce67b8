import type { SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import type { DatabaseConnection } from './database';

/** The constructor shape shared by every generated Prisma 7 client. */
export type PrismaClientClass<T> = new (options: {
  adapter: SqlDriverAdapterFactory;
  transactionOptions?: { maxWait?: number; timeout?: number };
  log?: never[];
}) => T;

/** A service's own generated client, bound to the process's database connection. */
export function createPrismaClient<T>(ClientClass: PrismaClientClass<T>, connection: DatabaseConnection): T {
  return new ClientClass(prismaClientOptions(connection));
}

/**
 * Interactive-transaction limits for every service client. Prisma's defaults (2 s to get a
 * connection, 5 s to finish) turn a burst (49 uploads at once on a 10-connection pool) or a
 * loaded machine into 500s; waiting a little longer for the pool is the better answer.
 */
export const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 30_000 } as const;

/** The options every service's Prisma client is built with: the shared connection and the limits above. */
export function prismaClientOptions(connection: DatabaseConnection) {
  return { adapter: connection.prismaAdapter(), transactionOptions: TRANSACTION_OPTIONS };
}
