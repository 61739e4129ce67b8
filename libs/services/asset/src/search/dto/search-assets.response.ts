import { ApiProperty, IntersectionType } from '@nestjs/swagger';
import { SearchPageFields } from '@genasset/http';
import { AssetDto } from '../../core/asset.response';

/** One hit of POST /v1/search/assets: the asset as GET /v1/assets/{id} shows it, plus upstream's search fields. */
export class AssetHitDto extends AssetDto {
  @ApiProperty() teamId!: string;
  @ApiProperty({ type: [String], description: 'Detected NSFW categories (none are detected: always [])' }) nsfw!: string[];
  @ApiProperty({ description: 'Relevance: (1 - ratio) · text + ratio · image similarity, in [0, 1]' }) score!: number;
}

/** The answer of POST /v1/search/assets (upstream PostSearchAssetsResponse). */
export class SearchAssetsResponse extends IntersectionType(SearchPageFields) {
  @ApiProperty({ type: [AssetHitDto] }) hits!: AssetHitDto[];
}
