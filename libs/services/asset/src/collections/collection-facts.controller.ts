import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import {
  CollectionDeleted,
  CollectionMembershipChanged,
  TOPICS,
  type CollectionDeletedData,
  type CollectionMembershipChangedData,
  type EventEnvelope,
} from '@genasset/contracts';
import { EventContext, OnEvent } from '@genasset/messaging';
import { ASSET_SERVICE } from '../asset.schema';
import { AssetRepository } from '../core/asset.repository';
import type { Prisma } from '../generated/prisma/client';

type Tx = Prisma.TransactionClient;

/**
 * asset-service's copy of collection membership (`asset.collectionIds`, the
 * `collectionId` list filter), from collection-service's facts. The updates
 * are idempotent (append only if absent, remove only if present) and the inbox
 * mark in `ctx.tx` makes a redelivered fact change nothing at all.
 */
@Controller()
export class CollectionFactsController {
  constructor(private readonly assets: AssetRepository) {}

  @OnEvent(TOPICS.collectionEvents, { consumer: ASSET_SERVICE, types: [CollectionMembershipChanged.type] })
  async membership(
    @Payload() envelope: EventEnvelope<CollectionMembershipChangedData>,
    @Ctx() ctx: EventContext<Tx>,
  ): Promise<void> {
    const { collectionId, projectId, kind, added, removed } = envelope.data;
    if (kind !== 'asset') return;
    if (added.length) await this.assets.addToCollection(ctx.tx, projectId, collectionId, added);
    if (removed.length) await this.assets.removeFromCollection(ctx.tx, projectId, collectionId, removed);
  }

  @OnEvent(TOPICS.collectionEvents, { consumer: ASSET_SERVICE, types: [CollectionDeleted.type] })
  async deleted(
    @Payload() envelope: EventEnvelope<CollectionDeletedData>,
    @Ctx() ctx: EventContext<Tx>,
  ): Promise<void> {
    await this.assets.removeFromCollection(ctx.tx, envelope.data.projectId, envelope.data.collectionId);
  }
}
