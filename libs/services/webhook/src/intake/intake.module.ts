import { Module } from '@nestjs/common';
import { DispatchModule } from '../dispatch/dispatch.module';
import { WebhookCoreModule } from '../webhook-core.module';
import { DeliveryIntakeRepository } from './delivery-intake.repository';
import { IntakeController } from './intake.controller';
import { RecordDeliveries } from './record-deliveries.use-case';

/** Consumes job lifecycle facts and team alerts; writes one `created` delivery per subscribed enabled endpoint. */
@Module({
  // DispatchModule: this process's delivery worker takes new deliveries straight from the intake.
  imports: [WebhookCoreModule, DispatchModule],
  controllers: [IntakeController],
  providers: [DeliveryIntakeRepository, RecordDeliveries],
})
export class IntakeModule {}
