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
import type { Prisma } from '../generated/prisma/client';
import { GENERATION_SERVICE } from '../generation.schema';
import { ModelsRepository } from './models.repository';

type Tx = Prisma.TransactionClient;

/**
 * The registry's copy of collection membership (`model.collectionIds`, the
 * `collectionId` filter of GET /v1/models), from collection-service's facts.
 * Each statement is idempotent (append only if absent, remove if present), and
 * the inbox mark in `ctx.tx` makes a redelivered fact change nothing at all.
 */
@Controller()
export class CollectionFactsController {
  constructor(private readonly models: ModelsRepository) {}

  @OnEvent(TOPICS.collectionEvents, {
    consumer: GENERATION_SERVICE,
    types: [CollectionMembershipChanged.type],
  })
  async membership(
    @Payload() envelope: EventEnvelope<CollectionMembershipChangedData>,
    @Ctx() ctx: EventContext<Tx>,
  ): Promise<void> {
    const { collectionId, projectId, kind, added, removed } = envelope.data;
    if (kind !== 'model') return;
    if (added.length) await this.models.addToCollection(ctx.tx, projectId, collectionId, added);
    if (removed.length) await this.models.removeFromCollection(ctx.tx, projectId, collectionId, removed);
  }

  @OnEvent(TOPICS.collectionEvents, { consumer: GENERATION_SERVICE, types: [CollectionDeleted.type] })
  async deleted(
    @Payload() envelope: EventEnvelope<CollectionDeletedData>,
    @Ctx() ctx: EventContext<Tx>,
  ): Promise<void> {
    const { collectionId, projectId } = envelope.data;
    await this.models.removeFromCollection(ctx.tx, projectId, collectionId);
  }
}
