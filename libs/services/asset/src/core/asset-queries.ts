import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { ProjectIdQuery } from '@genasset/auth';

/** The query every project route accepts: `projectId` for team-level keys. */
export class ProjectQuery {
  @ProjectIdQuery('whose assets to use')
  projectId?: string;
}

/** Routes returning assets: `originalAssets`. */
export class AssetResponseQuery extends ProjectQuery {
  @ApiPropertyOptional({ enum: ['true', 'false'], description: '`true`: url serves the original bytes, not the web rendition' })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'originalAssets must be true or false' })
  originalAssets?: string;
}

/** GET /v1/assets/{assetId} */
export class GetAssetQuery extends AssetResponseQuery {
  @ApiPropertyOptional({ enum: ['true', 'false'], description: '`true`: include the embedding' })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'withEmbedding must be true or false' })
  withEmbedding?: string;
}
