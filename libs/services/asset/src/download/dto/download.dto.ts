import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { TARGET_FORMAT_NAMES } from '../../core/images';

/** POST /v1/assets/{assetId}/download */
export class DownloadAssetBody {
  @ApiProperty({ enum: TARGET_FORMAT_NAMES, description: 'The image format to download the asset in' })
  @IsIn(TARGET_FORMAT_NAMES, { message: `targetFormat must be one of ${TARGET_FORMAT_NAMES.join(', ')}` })
  targetFormat!: string;
}

/** POST /v1/assets/{assetId}/download */
export class DownloadLinkResponse {
  @ApiProperty({ description: 'Signed URL serving the file as an attachment named <assetId>.<extension>' })
  url!: string;

  @ApiProperty({ format: 'date-time', description: 'When url expires' })
  expiresAt!: string;

  @ApiProperty({ enum: TARGET_FORMAT_NAMES })
  targetFormat!: string;

  @ApiProperty({ example: 'image/jpeg' })
  mimeType!: string;

  @ApiProperty({ type: 'integer', description: 'Bytes of the file' })
  size!: number;
}
