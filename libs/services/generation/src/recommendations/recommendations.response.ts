import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ModelView } from '../models/dto/model-responses.dto';

/** Upstream `GetRecommendationsModelsResponse`. */
export class RecommendationsResponse {
  @ApiProperty({ type: [ModelView], description: 'Most used by the project’s jobs first' }) models!: ModelView[];
  @ApiPropertyOptional({ description: 'Pass as nextToken for the next page; absent on the last page' })
  nextToken?: string;
}
