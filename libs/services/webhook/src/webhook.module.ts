import { Module } from '@nestjs/common';
import { MessagingModule } from '@genasset/messaging';
import { DeliveriesModule } from './deliveries/deliveries.module';
import { DispatchModule } from './dispatch/dispatch.module';
import { IntakeModule } from './intake/intake.module';
import { RetentionModule } from './retention/retention.module';
import { WebhookCoreModule } from './webhook-core.module';
import { WebhookDataModule } from './webhook-data.module';
import { WebhookEndpointsModule } from './webhook-endpoints/webhook-endpoints.module';
import { WebhookPrisma } from './webhook.prisma';
import { WEBHOOK_SCHEMA, WEBHOOK_SERVICE } from './webhook.schema';

/**
 * webhook-dispatcher: endpoint management, the delivery log, intake of facts
 * into delivery records, the workers that attempt them (dispatch/) and the
 * delivery log's retention purge (retention/).
 */
@Module({
  imports: [
    WebhookCoreModule,
    MessagingModule.forService({
      schema: WEBHOOK_SCHEMA.schema,
      producer: WEBHOOK_SERVICE,
      consumer: WEBHOOK_SERVICE,
      // The intake is raw SQL, thousands of facts a second: its transactions skip the ORM.
      consumerTransactions: 'driver',
      prismaToken: WebhookPrisma,
      imports: [WebhookDataModule],
    }),
    WebhookEndpointsModule,
    DeliveriesModule,
    IntakeModule,
    DispatchModule,
    RetentionModule,
  ],
})
export class WebhookDispatcherModule {}
