import { Module } from '@nestjs/common';
import { MessagingModule } from '@genasset/messaging';
import { WebhookDataModule } from './webhook-data.module';
import { WebhookPrisma } from './webhook.prisma';
import { WEBHOOK_SCHEMA, WEBHOOK_SERVICE } from './webhook.schema';

/** Webhook endpoints, deliveries and attempts. Features arrive as folders beside this module. */
@Module({
  imports: [
    WebhookDataModule,
    MessagingModule.forService({
      schema: WEBHOOK_SCHEMA.schema,
      producer: WEBHOOK_SERVICE,
      consumer: WEBHOOK_SERVICE,
      prismaToken: WebhookPrisma,
      imports: [WebhookDataModule],
    }),
  ],
})
export class WebhookDispatcherModule {}
