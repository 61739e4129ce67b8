import { Inject, Injectable } from '@nestjs/common';
import type { AssetPrivacy } from '@genasset/contracts';
import { ApiError } from '@genasset/http';
import { OBJECT_STORE, ObjectNotFoundError, type ObjectStore } from '@genasset/storage';
import { AssetFacts } from '../facts/asset-facts';
import type { Asset, Prisma } from '../generated/prisma/client';
import { objectKeys } from '../objects/object-keys';
import { StoredObjects } from '../objects/stored-objects';
import { newAssetId } from './asset-ids';
import { AssetRepository } from './asset.repository';
import type { AssetKind, AssetStatus, AssetType } from './asset-types';
import { probeImage, webRendition } from './images';

type Tx = Prisma.TransactionClient;

/** Everything a new asset row needs. Its objects must already be stored (see {@link StoredObjects.put}). */
export interface NewAsset {
  /** Pre-generated when object keys had to name the asset; generated otherwise. */
  id?: string;
  owner: { teamId: string; projectId: string; authorId: string };
  type: AssetType;
  kind: AssetKind;
  mimeType: string;
  status?: AssetStatus;
  privacy?: AssetPrivacy;
  name?: string;
  description?: string;
  tags?: string[];
  /** A derived asset's parent (same project); the root is the parent's root, or the parent itself. */
  parentId?: string;
  /**
   * The parent's lineage when the caller has just read the parent in this transaction, in the same
   * project (job outputs read their parents anyway): the parent is not read a second time.
   */
  parentLineage?: { rootParentId: string | null };
  inferenceId?: string;
  /** Only on outputs of an inference of this model (the `modelId` list filter relies on it). */
  modelId?: string;
  /** With outputIndex: makes creation idempotent (see {@link AssetWriter.createOnce}). */
  jobId?: string;
  outputIndex?: number;
  storageKey: string;
  renditionKey?: string;
  thumbnailKey?: string;
  /**
   * false: the objects never had a pending cleanup to cancel (they were not written through
   * StoredObjects.put: a job's outputs and their renditions), so `keep` is skipped. Default true.
   */
  pendingCleanup?: boolean;
  properties: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  embedding?: number[];
}

/** What {@link AssetWriter.describeStoredImage} read from an object an executor stored. */
export interface StoredImageDescription {
  kind: 'image';
  mimeType: string;
  properties: Record<string, unknown>;
  renditionKey?: string;
}

/**
 * The one way assets come into existence: uploads, copies, and the derived
 * assets of later features (generation outputs, texture maps, masks) which
 * call it from their event handlers with the handler's transaction
 * (`ctx.tx`). Each creation inserts the row, takes its objects off the
 * cleanup queue and writes its `asset.created` fact in that transaction.
 */
@Injectable()
export class AssetWriter {
  constructor(
    private readonly facts: AssetFacts,
    private readonly objects: StoredObjects,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    private readonly assets: AssetRepository,
  ) {}

  async create(tx: Tx, input: NewAsset): Promise<Asset> {
    const lineage = !input.parentId
      ? {}
      : input.parentLineage
        ? { parentId: input.parentId, rootParentId: input.parentLineage.rootParentId ?? input.parentId }
        : await this.lineage(tx, input.owner.projectId, input.parentId);
    const asset = await this.assets.insert(tx, {
      id: input.id ?? newAssetId(),
      teamId: input.owner.teamId,
      projectId: input.owner.projectId,
      authorId: input.owner.authorId,
      type: input.type,
      kind: input.kind,
      mimeType: input.mimeType,
      status: input.status ?? 'success',
      privacy: input.privacy ?? 'private',
      name: input.name,
      description: input.description,
      tags: input.tags ?? [],
      ...lineage,
      inferenceId: input.inferenceId,
      modelId: input.modelId,
      jobId: input.jobId,
      outputIndex: input.outputIndex,
      storageKey: input.storageKey,
      renditionKey: input.renditionKey,
      thumbnailKey: input.thumbnailKey,
      properties: input.properties as Prisma.InputJsonObject,
      metadata: (input.metadata ?? {}) as Prisma.InputJsonObject,
      embedding: input.embedding ?? [],
    });
    if (input.pendingCleanup !== false)
      await this.objects.keep(tx, [asset.storageKey, asset.renditionKey, asset.thumbnailKey].filter((k): k is string => !!k));
    await this.facts.created(tx, [asset]);
    return asset;
  }

  /**
   * Creates output `outputIndex` of job `jobId` once: a redelivered job fact
   * finds the asset it created the first time (and writes no second fact).
   */
  async createOnce(tx: Tx, input: NewAsset & { jobId: string; outputIndex: number }): Promise<{ asset: Asset; created: boolean }> {
    const existing = await this.assets.findJobOutput(tx, input.jobId, input.outputIndex);
    if (existing) {
      if (existing.projectId !== input.owner.projectId) throw new Error(`job ${input.jobId} output ${input.outputIndex} belongs to another project`);
      return { asset: existing, created: false };
    }
    return { asset: await this.create(tx, input), created: true };
  }

  /**
   * For executors' outputs (claim check): reads the image an executor stored
   * at `key`, checks it is a decodable image, and stores its web rendition
   * under the asset's prefix. Call before the transaction that creates the
   * asset (with the same `assetId`); the rendition is cleaned up if that
   * transaction never commits.
   */
  async describeStoredImage(projectId: string, assetId: string, key: string): Promise<StoredImageDescription> {
    let bytes: Buffer;
    try {
      const object = await this.store.get(key);
      const chunks: Buffer[] = [];
      for await (const chunk of object.body) chunks.push(chunk as Buffer);
      bytes = Buffer.concat(chunks);
    } catch (error) {
      if (error instanceof ObjectNotFoundError) throw new Error(`no object at ${key}`);
      throw error;
    }
    const image = await probeImage(bytes, key);
    const rendition = await webRendition(bytes, image);
    let renditionKey: string | undefined;
    if (rendition) {
      renditionKey = objectKeys.rendition(projectId, assetId);
      await this.objects.put(renditionKey, rendition, 'image/webp');
    }
    return {
      kind: 'image',
      mimeType: image.mimeType,
      properties: imageProperties(image),
      ...(renditionKey ? { renditionKey } : {}),
    };
  }

  private async lineage(tx: Tx, projectId: string, parentId: string): Promise<{ parentId: string; rootParentId: string }> {
    const parent = await this.assets.findParent(tx, projectId, parentId);
    if (!parent) throw ApiError.notFound(`parent asset ${parentId} not found`, parentId);
    return { parentId: parent.id, rootParentId: parent.rootParentId ?? parent.id };
  }
}

/** `properties` of an image asset. */
export function imageProperties(image: Awaited<ReturnType<typeof probeImage>>): Record<string, unknown> {
  return {
    width: image.width,
    height: image.height,
    size: image.size,
    format: image.format,
    hasAlpha: image.hasAlpha,
    ...(image.pages ? { nbFrames: image.pages } : {}),
  };
}
