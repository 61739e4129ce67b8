import { errorMessage } from '@genasset/contracts';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { OBJECT_STORE, type ObjectStore } from '@genasset/storage';
import { AssetRepository, type AssetRow } from '../core/asset.repository';
import { embeddable, imageEmbedding } from './image-embedding';

/**
 * Stored image embeddings (`assets.embedding`). Uploads and generation
 * outputs get theirs when they are created (their bytes are decoded then
 * anyway); an asset made another way (copies, older assets) gets it the
 * first time `withEmbedding=true` asks, computed from its original and
 * stored. The embedding is derived data, a cache of a pure function of the
 * asset's bytes: filling it changes nothing a client or another service
 * observes, so it writes no fact.
 */
@Injectable()
export class AssetEmbeddings {
  private readonly logger = new Logger(AssetEmbeddings.name);

  constructor(
    private readonly assets: AssetRepository,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
  ) {}

  /** The row with its embedding filled when it can have one (row loaded with `withEmbedding`). */
  async ensure(row: AssetRow): Promise<AssetRow> {
    if (row.embedding?.length || !embeddable(row)) return row;
    let embedding: number[];
    try {
      const object = await this.store.get(row.storageKey);
      const chunks: Buffer[] = [];
      for await (const chunk of object.body) chunks.push(chunk as Buffer);
      embedding = await imageEmbedding(Buffer.concat(chunks));
    } catch (error) {
      // A missing or unreadable original leaves the asset without an embedding, as the upstream does for what it cannot embed.
      this.logger.warn(
        `asset ${row.id}: no embedding (${errorMessage(error)})`,
      );
      return row;
    }
    // Only where still empty: a concurrent fill wrote the same vector (same bytes, same function).
    await this.assets.fillEmbedding(row.id, embedding);
    return { ...row, embedding };
  }
}
