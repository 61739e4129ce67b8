import { Injectable } from '@nestjs/common';
import { AssetPrisma } from '../asset.prisma';

export interface SizedAsset {
  id: string;
  /** `properties.size` in bytes (0 when unknown). */
  size: number;
}

const SIZE = `CASE WHEN jsonb_typeof(properties->'size') = 'number' THEN (properties->>'size')::float8 ELSE 0 END`;

/** What a batch download request reads of the project's assets: which exist, and how big they are. */
@Injectable()
export class BatchAssetsRepository {
  constructor(private readonly prisma: AssetPrisma) {}

  /** The project's assets among `ids` (any order). */
  owned(projectId: string, ids: readonly string[]): Promise<SizedAsset[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.prisma.$queryRawUnsafe<SizedAsset[]>(
      `SELECT id, ${SIZE} AS size FROM assets.assets WHERE project_id = $1 AND id = ANY($2::text[])`,
      projectId,
      [...ids],
    );
  }

  /** The project's outputs of these inferences or models, oldest first, at most `limit`. */
  fromSources(
    projectId: string,
    inferenceIds: readonly string[],
    modelIds: readonly string[],
    limit: number,
  ): Promise<SizedAsset[]> {
    if (inferenceIds.length === 0 && modelIds.length === 0) return Promise.resolve([]);
    return this.prisma.$queryRawUnsafe<SizedAsset[]>(
      `SELECT id, ${SIZE} AS size FROM assets.assets
        WHERE project_id = $1 AND (inference_id = ANY($2::text[]) OR model_id = ANY($3::text[]))
        ORDER BY created_at, id LIMIT $4`,
      projectId,
      [...inferenceIds],
      [...modelIds],
      limit,
    );
  }
}
