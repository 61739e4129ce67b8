import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { FOREIGN_ID } from '../../core/asset-ids';

/** POST /v1/assets/{assetId}/copy (upstream `CopyAssetByAssetIdRequest`). */
export class CopyAssetBody {
  @ApiPropertyOptional({ description: "The project to copy into (one the credentials reach); default: the asset's own project" })
  @IsOptional()
  @Matches(FOREIGN_ID, { message: 'targetProjectId is not a valid project id' })
  targetProjectId?: string;
}
