import { Module } from '@nestjs/common';
import { WebhookCoreModule } from '../webhook-core.module';
import { DeliveryIntakeRepository } from './delivery-intake.repository';
import { IntakeController } from './intake.controller';
import { RecordDeliveries } from './record-deliveries.use-case';

/** Consumes job lifecycle facts and team alerts; writes one `created` delivery per subscribed enabled endpoint. */
@Module({
  imports: [WebhookCoreModule],
  controllers: [IntakeController],
  providers: [DeliveryIntakeRepository, RecordDeliveries],
})
export class IntakeModule {}
