import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { ModelDeleted, TOPICS, type EventEnvelope, type ModelFactData } from '@genasset/contracts';
import { EventContext, OnEvent } from '@genasset/messaging';
import { COLLECTION_SERVICE } from '../collection.schema';
import type { Prisma } from '../generated/prisma/client';
import { ModelTombstones } from './model-tombstones.repository';

/** generation-service's model.deleted: the model leaves every collection (idempotent: inbox mark in ctx.tx). */
@Controller()
export class ModelFactsController {
  constructor(private readonly tombstones: ModelTombstones) {}

  @OnEvent(TOPICS.modelEvents, { consumer: COLLECTION_SERVICE, types: [ModelDeleted.type] })
  async modelDeleted(
    @Payload() envelope: EventEnvelope<ModelFactData>,
    @Ctx() ctx: EventContext<Prisma.TransactionClient>,
  ): Promise<void> {
    await this.tombstones.detach(ctx.tx, envelope.data, new Date(envelope.occurredAt));
  }
}
