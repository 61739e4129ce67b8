import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { TARGET_FORMAT_NAMES } from '../../core/images';

/** POST /v1/assets/{assetId}/download */
export class DownloadAssetBody {
  @ApiProperty({ enum: TARGET_FORMAT_NAMES, description: 'The image format to download the asset in' })
  @IsIn(TARGET_FORMAT_NAMES, { message: `targetFormat must be one of ${TARGET_FORMAT_NAMES.join(', ')}` })
  targetFormat!: string;
}
