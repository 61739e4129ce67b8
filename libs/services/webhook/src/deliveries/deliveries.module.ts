import { Module } from '@nestjs/common';
import { WebhookCoreModule } from '../webhook-core.module';
import { ProjectDeliveriesController, TeamDeliveriesController } from './deliveries.controller';
import { DeliveriesRepository } from './deliveries.repository';
import { GetDelivery } from './get-delivery.use-case';
import { ListDeliveries } from './list-deliveries.use-case';
import { RecoverDeliveries } from './recover-deliveries.use-case';
import { RedeliveryRepository } from './redelivery.repository';
import { ResendDelivery } from './resend-delivery.use-case';

/**
 * `…/webhook-endpoints/{id}/events[/{eventId}]`: the delivery log; `…/events/{eventId}/resend` and
 * `…/recover`: new deliveries queued for the delivery workers (who may run in another process).
 */
@Module({
  imports: [WebhookCoreModule],
  controllers: [ProjectDeliveriesController, TeamDeliveriesController],
  providers: [
    DeliveriesRepository,
    RedeliveryRepository,
    ListDeliveries,
    GetDelivery,
    ResendDelivery,
    RecoverDeliveries,
  ],
})
export class DeliveriesModule {}
