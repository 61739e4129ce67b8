import { ApiProperty, IntersectionType } from '@nestjs/swagger';
import { SearchPageFields } from '@genasset/http';

/** The answer of POST /v1/search/models (upstream PostSearchModelsResponse). */
export class SearchModelsResponse extends IntersectionType(SearchPageFields) {
  @ApiProperty({ type: 'array', items: { type: 'object' }, description: 'Models as GET /v1/models shows them, with teamId, concepts ([]), score, and name and shortDescription always present ("" when unset)' })
  hits!: Record<string, unknown>[];
}
