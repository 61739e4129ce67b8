import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

// OpenAPI shapes of the 200 bodies of /v1/models… (what toModelView,
// trainingImageView and the services return; docs/models.md). Prefixed so
// they never collide with other services' schema names.

const OPEN_OBJECT = { type: 'object', additionalProperties: true } as const;

export class ModelTrainingImageView {
  @ApiProperty({ description: 'The asset id of the image' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() description!: string;
  @ApiProperty({ description: 'Empty: no captioning runs on training images' }) automaticCaptioning!: string;
  @ApiProperty({ description: 'Signed URL of the image' }) downloadUrl!: string;
  @ApiProperty() createdAt!: string;
}

export class ModelView {
  @ApiProperty({ example: 'model_01JD4Q3ZK8Y3VZ5N6W0R1T2S3A' }) id!: string;
  @ApiPropertyOptional() name?: string;
  @ApiPropertyOptional() shortDescription?: string;
  @ApiProperty({ description: 'The model type (flux.1-lora, custom…)' }) type!: string;
  @ApiProperty({ description: 'new, training, trained, failed or training-canceled' }) status!: string;
  @ApiProperty({ description: 'private, public or unlisted' }) privacy!: string;
  @ApiProperty({ enum: ['other'] }) source!: string;
  @ApiProperty({ description: 'Generated with POST /v1/generate/custom/{modelId} (not a legacy family)' })
  custom!: boolean;
  @ApiProperty({ description: 'The project the model belongs to' }) ownerId!: string;
  @ApiPropertyOptional({ description: 'The API key that created it' }) authorId?: string;
  @ApiProperty({ type: [String] }) capabilities!: string[];
  @ApiProperty({ type: 'array', items: OPEN_OBJECT, description: 'The inputs the model takes' })
  inputs!: Record<string, unknown>[];
  @ApiPropertyOptional({ ...OPEN_OBJECT, description: 'Training parameters' })
  parameters?: Record<string, unknown>;
  @ApiPropertyOptional({ description: 'Not upstream: the backend the model runs on (docs/models.md)' }) backend?: string;
  @ApiPropertyOptional({ description: "Not upstream: the version the backend's training made (a Replicate owner/name:version)" })
  trainedVersion?: string;
  @ApiProperty({ type: [String] }) tags!: string[];
  @ApiProperty({ type: [String] }) collectionIds!: string[];
  @ApiProperty({ type: [String], description: 'The example assets, in order (PUT /examples)' }) exampleAssetIds!: string[];
  @ApiProperty({ type: [ModelTrainingImageView] }) trainingImages!: ModelTrainingImageView[];
  @ApiProperty({ type: 'integer', minimum: 0 }) trainingImagesNumber!: number;
  @ApiPropertyOptional({
    type: 'array',
    items: OPEN_OBJECT,
    description: '{ sourceId, targetId, instruction }: paired training images (instruction-editing types)',
  })
  trainingImagePairs?: Record<string, unknown>[];
  @ApiPropertyOptional({ ...OPEN_OBJECT, description: 'Stage and progress of the training' })
  trainingProgress?: Record<string, unknown>;
  @ApiPropertyOptional({ ...OPEN_OBJECT, description: 'Statistics of the last training' })
  trainingStats?: Record<string, unknown>;
  @ApiProperty() createdAt!: string;
  @ApiProperty() updatedAt!: string;
}

export class ModelResponse {
  @ApiProperty({ type: ModelView }) model!: ModelView;
}

export class ModelListResponse {
  @ApiProperty({ type: [ModelView] }) models!: ModelView[];
  @ApiPropertyOptional({ description: 'Pass as paginationToken for the next page; absent on the last page' })
  nextPaginationToken?: string;
}

/** `{}`: DELETE answers. */
export class ModelEmptyResponse {}

export class ModelTagsResponse {
  @ApiProperty({ type: [String], description: 'Tags added (those not already there)' }) added!: string[];
  @ApiProperty({ type: [String], description: 'Tags deleted (those that were there)' }) deleted!: string[];
}

export class ModelTrainingImagesResponse {
  @ApiProperty({ type: [ModelTrainingImageView] }) trainingImages!: ModelTrainingImageView[];
}

export class ModelAddTrainingImagesResponse extends ModelTrainingImagesResponse {
  @ApiProperty({ type: ModelTrainingImageView, description: 'The first image added' })
  trainingImage!: ModelTrainingImageView;
}

export class ModelTrainDryRunResponse {
  @ApiProperty({ description: 'Creative units the training costs' }) creativeUnitsCost!: number;
  @ApiProperty() creativeUnitsDiscount!: number;
}

export class ModelTrainResponse extends ModelTrainDryRunResponse {
  @ApiProperty({ type: ModelView }) model!: ModelView;
  @ApiProperty({ ...OPEN_OBJECT, description: 'The training job (GET /v1/jobs/{jobId})' })
  job!: Record<string, unknown>;
}

export class ModelDownloadResponse {
  @ApiProperty({ description: 'The export job; model.download.completed carries the downloadUrl' })
  jobId!: string;
}
