import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { DATABASE_CONNECTION, prismaClientOptions, type DatabaseConnection } from '@genasset/persistence';
import { PrismaClient, type Prisma } from './generated/prisma/client';

/** The webhook-dispatcher's Prisma client: its own schema only, on the process's shared connection. */
@Injectable()
export class WebhookPrisma extends PrismaClient implements OnApplicationShutdown {
  constructor(@Inject(DATABASE_CONNECTION) connection: DatabaseConnection) {
    super(prismaClientOptions(connection));
  }

  // After the relays and consumers stopped (beforeApplicationShutdown): they still write while draining.
  async onApplicationShutdown(): Promise<void> {
    await this.$disconnect();
  }
}

/** The transaction client `$transaction(fn)` hands out, and the one `@OnEvent` handlers get as `ctx.tx`. */
export type WebhookTx = Prisma.TransactionClient;
