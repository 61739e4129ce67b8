import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ASSET_KINDS_FOR_DOCS, PENDING_ASSET_STATUSES } from '../responses/pending-asset';
import { JobSchema } from '@genasset/http';

// OpenAPI shapes of the generate responses (upstream DryRunResponse,
// JobAndBillingGenerateResponse, JobAndAssetAndBillingGenerateResponse, and the
// per-mode bodies). Names are prefixed so they never collide with job-service's.

export class GenerateDryRunResponse {
  @ApiProperty({ description: 'Creative units the request would cost' })
  creativeUnitsCost!: number;

  @ApiPropertyOptional({ description: 'Creative units discounted from the cost' })
  creativeUnitsDiscount?: number;
}

export class JobAndBillingGenerateResponse extends GenerateDryRunResponse {
  @ApiProperty({ type: JobSchema }) job!: JobSchema;
}

class PendingAssetMetadata {
  @ApiProperty({ description: 'Asset type of the output, e.g. detection, pixelization, background-removal' })
  type!: string;
  @ApiProperty({ enum: ASSET_KINDS_FOR_DOCS }) kind!: string;
  @ApiPropertyOptional({ description: 'The input asset the output derives from' }) parentId?: string;
  @ApiPropertyOptional({ description: 'The root of the input asset’s lineage' }) rootParentId?: string;
}

class PendingAssetProperties {
  @ApiProperty({ description: 'Size in bytes: 0 until the job has stored the output' }) size!: number;
}

export class GeneratePendingAsset {
  @ApiProperty({ description: 'Reserved id: the output asset will have it once the job succeeds' })
  id!: string;
  @ApiProperty({ enum: PENDING_ASSET_STATUSES }) status!: string;
  @ApiProperty({ enum: ASSET_KINDS_FOR_DOCS }) kind!: string;
  @ApiProperty() source!: string;
  @ApiProperty() mimeType!: string;
  @ApiProperty({
    description: 'Empty until the asset exists: fetch GET /v1/assets/{id} after the job succeeds',
  })
  url!: string;
  @ApiProperty() ownerId!: string;
  @ApiProperty() authorId!: string;
  @ApiProperty({ enum: ['private'] }) privacy!: string;
  @ApiProperty({ type: [String] }) tags!: string[];
  @ApiProperty({ type: [String] }) collectionIds!: string[];
  @ApiProperty({ type: [String] }) editCapabilities!: string[];
  @ApiProperty({ type: PendingAssetProperties }) properties!: PendingAssetProperties;
  @ApiProperty({ type: PendingAssetMetadata }) metadata!: PendingAssetMetadata;
  @ApiProperty() outputIndex!: number;
  @ApiProperty() createdAt!: string;
  @ApiProperty() updatedAt!: string;
}

export class JobAndAssetAndBillingGenerateResponse extends JobAndBillingGenerateResponse {
  @ApiProperty({
    type: GeneratePendingAsset,
    description: 'The output asset, pending until the job succeeds',
  })
  asset!: GeneratePendingAsset;
}

const RESULT_NOTE =
  'Filled from the job’s output when it finishes within the wait (GENERATION_RESULT_WAIT); otherwise empty, and the job carries it once done';

export class CaptionGenerateResponse extends JobAndBillingGenerateResponse {
  @ApiProperty({ type: [String], description: `Captions, in the order of the images. ${RESULT_NOTE}` })
  captions!: string[];
  @ApiPropertyOptional({ enum: ['action', 'action+style'] }) detailsLevel?: string;
}

export class DescribeStyleGenerateResponse extends JobAndBillingGenerateResponse {
  @ApiProperty({ description: `The style of the images. ${RESULT_NOTE}` }) description!: string;
  @ApiProperty({ description: 'A short synthesis' }) synthesis!: string;
}

export class EmbedGenerateResponse extends JobAndBillingGenerateResponse {
  @ApiProperty({ type: [Number], description: `The embedding (1024 dimensions). ${RESULT_NOTE}` })
  embedding!: number[];
}

export class PromptGenerateResponse extends JobAndBillingGenerateResponse {
  @ApiProperty({ type: [String], description: `The generated prompts. ${RESULT_NOTE}` }) prompts!: string[];
  @ApiPropertyOptional({ description: 'The mode used' }) mode?: string;
}

export class TranslateGenerateResponse extends JobAndBillingGenerateResponse {
  @ApiProperty({ description: `The translated prompt. ${RESULT_NOTE}` }) translation!: string;
  @ApiProperty({ description: 'Detected language of the input' }) detectedLanguage!: string;
}

export class SegmentGenerateResponse extends JobAndBillingGenerateResponse {
  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'object', additionalProperties: true },
    description: 'Segments, once the job has produced them',
  })
  segments?: Record<string, unknown>[];
}
