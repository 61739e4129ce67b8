import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, Matches } from 'class-validator';
import { ASSET_ID_PATTERN } from '../../core/asset-ids';
import { LIMITS } from '../../core/limits';

const EACH_ASSET_ID = { each: true, message: 'assetIds must contain asset ids (asset_…) only' } as const;

/** DELETE /v1/assets */
export class DeleteAssetsBody {
  @ApiProperty({ type: [String], maxItems: LIMITS.deleteBatch, description: `The ids of the assets to delete (at most ${LIMITS.deleteBatch})` })
  @IsArray({ message: 'assetIds must be an array of asset ids' })
  @ArrayMinSize(1, { message: 'assetIds must not be empty' })
  @ArrayMaxSize(LIMITS.deleteBatch, { message: `assetIds can hold at most ${LIMITS.deleteBatch} ids` })
  @Matches(ASSET_ID_PATTERN, EACH_ASSET_ID)
  assetIds!: string[];
}

/** POST /v1/assets/get-bulk */
export class GetBulkBody {
  @ApiProperty({ type: [String], maxItems: LIMITS.getBulkBatch, description: `Asset ids (at most ${LIMITS.getBulkBatch})` })
  @IsArray({ message: 'assetIds must be an array of asset ids' })
  @ArrayMinSize(1, { message: 'assetIds must not be empty' })
  @ArrayMaxSize(LIMITS.getBulkBatch, { message: `assetIds can hold at most ${LIMITS.getBulkBatch} ids` })
  @Matches(ASSET_ID_PATTERN, EACH_ASSET_ID)
  assetIds!: string[];
}
