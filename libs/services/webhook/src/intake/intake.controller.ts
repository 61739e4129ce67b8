import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import {
  TOPICS,
  type CreditThresholdCrossedData,
  type EventEnvelope,
  type JobLifecycleData,
} from '@genasset/contracts';
import { EventContext, OnEvent, type SqlClient } from '@genasset/messaging';
import { publicJobEvent, publicTeamEvent } from '../event-catalog';
import { WEBHOOK_SERVICE } from '../webhook.schema';
import { RecordDeliveries } from './record-deliveries.use-case';

/**
 * Where internal facts enter the dispatcher. Batch handlers: a whole delivery
 * batch of facts becomes delivery records in a few statements, in the same
 * transaction as the inbox marks, so a redelivered fact changes nothing.
 */
@Controller()
export class IntakeController {
  constructor(private readonly recordDeliveries: RecordDeliveries) {}

  // Most lifecycle facts (progress, queued, in progress) concern no receiver: skipped before any transaction.
  @OnEvent(TOPICS.jobLifecycle, {
    consumer: WEBHOOK_SERVICE,
    batch: true,
    when: (envelope: EventEnvelope<JobLifecycleData>) => publicJobEvent(envelope) !== undefined,
  })
  async jobLifecycle(
    @Payload() envelopes: EventEnvelope<JobLifecycleData>[],
    @Ctx() ctx: EventContext<SqlClient>,
  ): Promise<void> {
    await this.recordDeliveries.execute(ctx, envelopes.map(publicJobEvent));
  }

  @OnEvent(TOPICS.teamAlerts, { consumer: WEBHOOK_SERVICE, batch: true })
  async teamAlerts(
    @Payload() envelopes: EventEnvelope<CreditThresholdCrossedData>[],
    @Ctx() ctx: EventContext<SqlClient>,
  ): Promise<void> {
    await this.recordDeliveries.execute(ctx, envelopes.map(publicTeamEvent));
  }
}
