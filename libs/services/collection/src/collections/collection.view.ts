import type { Collection } from '../generated/prisma/client';
import type { CollectionView } from './dto/collection.response';

/**
 * The upstream collection shape. `ownerId` is the project; `itemCount` is
 * assets + models. The thumbnail URL is the asset's own resource: its file URL
 * is signed and expires, so it is asked for when shown, not stored here.
 */
export function toCollectionView(row: Collection, publicBaseUrl = ''): CollectionView {
  return {
    id: row.id,
    name: row.name,
    ownerId: row.projectId,
    ...(row.thumbnailAssetId
      ? {
          thumbnail: {
            assetId: row.thumbnailAssetId,
            url: `${publicBaseUrl.replace(/\/$/, '')}/v1/assets/${row.thumbnailAssetId}`,
          },
        }
      : {}),
    assetCount: row.assetCount,
    modelCount: row.modelCount,
    itemCount: row.assetCount + row.modelCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
