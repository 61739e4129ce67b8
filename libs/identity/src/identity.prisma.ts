import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { DATABASE_CONNECTION, type DatabaseConnection } from '@genasset/persistence';
import { PrismaClient } from './generated/prisma/client';

/** The identity schema's own Prisma client, on the process's shared connection. */
@Injectable()
export class IdentityPrisma extends PrismaClient implements OnModuleDestroy {
  constructor(@Inject(DATABASE_CONNECTION) connection: DatabaseConnection) {
    super({ adapter: connection.prismaAdapter() });
  }

  async onModuleDestroy(): Promise<void> {
    await this.$disconnect();
  }
}
