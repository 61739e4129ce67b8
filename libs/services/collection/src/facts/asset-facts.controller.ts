import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { AssetDeleted, TOPICS, type AssetFactData, type EventEnvelope } from '@genasset/contracts';
import { EventContext, OnEvent } from '@genasset/messaging';
import { COLLECTION_SERVICE } from '../collection.schema';
import type { Prisma } from '../generated/prisma/client';
import { AssetTombstones } from './asset-tombstones.repository';

/**
 * asset-service's facts as they concern collections: a deleted asset leaves
 * every collection, wherever it was deleted from (its own route, a bulk delete,
 * a later cleanup). Only asset.deleted matters here; other asset facts on the
 * topic are not this consumer's business.
 */
@Controller()
export class AssetFactsController {
  constructor(private readonly tombstones: AssetTombstones) {}

  @OnEvent(TOPICS.assetEvents, { consumer: COLLECTION_SERVICE, types: [AssetDeleted.type] })
  async assetDeleted(
    @Payload() envelope: EventEnvelope<AssetFactData>,
    @Ctx() ctx: EventContext<Prisma.TransactionClient>,
  ): Promise<void> {
    // ctx.tx also records the inbox mark: a redelivered fact finds it and changes nothing.
    await this.tombstones.detach(ctx.tx, envelope.data, new Date(envelope.occurredAt));
  }
}
