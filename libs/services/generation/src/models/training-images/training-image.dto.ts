import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsDefined, IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { ASSET_ID } from '../model-types';
import { ModelTrainingImageView } from '../dto/model-responses.dto';
import { ModelsQuery } from '../dto/model.dto';

/** PUT /v1/models/{modelId}/training-images/{trainingImageId}: the image that takes its place. */
export class ReplaceTrainingImageBody {
  @ApiPropertyOptional({ description: 'An image asset of the project (wins over data and name)' })
  @IsOptional()
  @Matches(ASSET_ID, { message: 'assetId is not an asset id' })
  assetId?: string;

  @ApiPropertyOptional({ description: 'A data URL of the image (stored as an uploaded asset of the project)' })
  @IsOptional()
  @IsString()
  data?: string;

  @ApiPropertyOptional({ description: 'The file name shown for the image' })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  name?: string;

  @ApiPropertyOptional({ type: [String], description: 'Upstream batch field: one asset id at most when replacing one image' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(1, { message: 'assetIds: one image replaces one image' })
  @Matches(ASSET_ID, { each: true, message: 'assetIds must hold asset ids' })
  assetIds?: string[];

  @ApiPropertyOptional({ enum: ['default', 'style', 'subject'], description: 'Accepted; no preprocessing runs here' })
  @IsOptional()
  @IsIn(['default', 'style', 'subject'])
  preset?: string;
}

export class DeleteImagesQuery extends ModelsQuery {
  @ApiProperty({ description: 'Asset ids of the training images to remove, comma separated' })
  @IsDefined({ message: 'ids is required' })
  @IsString()
  @MaxLength(10_000)
  ids!: string;
}

export class TrainingImagePair {
  @ApiProperty() sourceId!: string;
  @ApiProperty() targetId!: string;
  @ApiProperty() instruction!: string;
}

export class TrainingImagePairsResponse {
  @ApiProperty() count!: number;
  @ApiProperty({ type: [TrainingImagePair] }) pairs!: TrainingImagePair[];
}

export class ReplaceTrainingImageResponse {
  @ApiProperty({ type: ModelTrainingImageView }) trainingImage!: ModelTrainingImageView;
}
