import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { DATABASE_CONNECTION, prismaClientOptions, type DatabaseConnection } from '@genasset/persistence';
import { PrismaClient } from './generated/prisma/client';

/** The asset-service's Prisma client: its own schema only, on the process's shared connection. */
@Injectable()
export class AssetPrisma extends PrismaClient implements OnApplicationShutdown {
  constructor(@Inject(DATABASE_CONNECTION) connection: DatabaseConnection) {
    super(prismaClientOptions(connection));
  }

  // Not onModuleDestroy: the outbox relay stops in beforeApplicationShutdown,
  // which comes later, and would find the client already disconnected.
  // (The pool belongs to the shared connection, which closes it.)
  async onApplicationShutdown(): Promise<void> {
    await this.$disconnect();
  }
}
