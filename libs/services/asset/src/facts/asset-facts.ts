import { Injectable } from '@nestjs/common';
import { AssetCreated, AssetDeleted, AssetUpdated, type AssetFactData, type AssetPrivacy, type EventEnvelope } from '@genasset/contracts';
import { Outbox } from '@genasset/messaging';
import type { Asset, Prisma } from '../generated/prisma/client';

/** The columns a fact is built from (list rows and full records both have them). */
export type FactSource = Pick<Asset, 'id' | 'teamId' | 'projectId' | 'type' | 'privacy' | 'parentId' | 'rootParentId' | 'jobId' | 'tags'>;

export function factData(asset: FactSource): AssetFactData {
  return {
    assetId: asset.id,
    teamId: asset.teamId,
    projectId: asset.projectId,
    type: asset.type,
    privacy: asset.privacy as AssetPrivacy,
    ...(asset.parentId ? { parentId: asset.parentId } : {}),
    ...(asset.rootParentId ? { rootParentId: asset.rootParentId } : {}),
    ...(asset.jobId ? { jobId: asset.jobId } : {}),
    tags: asset.tags,
  };
}

/**
 * Publishes asset facts (`asset.events.v1`, key: assetId) for other services,
 * always through the outbox of the transaction that made the change: a fact
 * exists if and only if its change committed.
 */
@Injectable()
export class AssetFacts {
  constructor(private readonly outbox: Outbox) {}

  created(tx: Prisma.TransactionClient, assets: readonly FactSource[]): Promise<void> {
    return this.write(tx, assets.map((a) => this.outbox.event(AssetCreated, factData(a))));
  }

  updated(tx: Prisma.TransactionClient, assets: readonly FactSource[]): Promise<void> {
    return this.write(tx, assets.map((a) => this.outbox.event(AssetUpdated, factData(a))));
  }

  /** One `asset.deleted` per asset, in one outbox statement. */
  deleted(tx: Prisma.TransactionClient, assets: readonly FactSource[]): Promise<void> {
    return this.write(tx, assets.map((a) => this.outbox.event(AssetDeleted, factData(a))));
  }

  private write(tx: Prisma.TransactionClient, envelopes: EventEnvelope[]): Promise<void> {
    return this.outbox.write(tx, envelopes);
  }
}
