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

type Tx = Prisma.TransactionClient;

/**
 * The registry's copy of collection membership (`model.collectionIds`, the
 * `collectionId` filter of GET /v1/models), from collection-service's facts.
 * Each statement is idempotent (append only if absent, remove if present), and
 * the inbox mark in `ctx.tx` makes a redelivered fact change nothing at all.
 */
@Controller()
export class CollectionFactsController {
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
    if (added.length)
      await ctx.tx.$executeRaw`
        UPDATE generation.models SET collection_ids = array_append(collection_ids, ${collectionId})
         WHERE project_id = ${projectId} AND id = ANY(${added}::text[]) AND NOT (${collectionId} = ANY(collection_ids))`;
    if (removed.length)
      await ctx.tx.$executeRaw`
        UPDATE generation.models SET collection_ids = array_remove(collection_ids, ${collectionId})
         WHERE project_id = ${projectId} AND id = ANY(${removed}::text[]) AND ${collectionId} = ANY(collection_ids)`;
  }

  @OnEvent(TOPICS.collectionEvents, { consumer: GENERATION_SERVICE, types: [CollectionDeleted.type] })
  async deleted(
    @Payload() envelope: EventEnvelope<CollectionDeletedData>,
    @Ctx() ctx: EventContext<Tx>,
  ): Promise<void> {
    const { collectionId, projectId } = envelope.data;
    await ctx.tx.$executeRaw`
      UPDATE generation.models SET collection_ids = array_remove(collection_ids, ${collectionId})
       WHERE project_id = ${projectId} AND ${collectionId} = ANY(collection_ids)`;
  }
}
