import { Module } from '@nestjs/common';
import { WebhookCoreModule } from '../webhook-core.module';
import { ProjectDeliveriesController, TeamDeliveriesController } from './deliveries.controller';
import { DeliveriesRepository } from './deliveries.repository';
import { GetDelivery } from './get-delivery.use-case';
import { ListDeliveries } from './list-deliveries.use-case';

/** `…/webhook-endpoints/{id}/events[/{eventId}]`: the delivery log, read only. */
@Module({
  imports: [WebhookCoreModule],
  controllers: [ProjectDeliveriesController, TeamDeliveriesController],
  providers: [DeliveriesRepository, ListDeliveries, GetDelivery],
})
export class DeliveriesModule {}
