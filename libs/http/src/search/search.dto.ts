import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsInt, IsNumber, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';

/** At most this many reference images in images.like + images.unlike (each is a stored vector or an image to embed). */
export const MAX_REFERENCE_IMAGES = 10;

/** `images` of POST /v1/search/assets and /v1/search/models. */
export class SearchImagesBody {
  @ApiPropertyOptional({ type: [String], maxItems: MAX_REFERENCE_IMAGES, description: 'Asset ids or data URLs of images the hits should look like' })
  @IsOptional()
  @IsArray({ message: 'images.like must be an array of asset ids or data URLs' })
  @ArrayMaxSize(MAX_REFERENCE_IMAGES, { message: `images.like can hold at most ${MAX_REFERENCE_IMAGES} images` })
  @IsString({ each: true, message: 'images.like must contain asset ids or data URLs (strings)' })
  like?: string[];

  @ApiPropertyOptional({ type: [String], maxItems: MAX_REFERENCE_IMAGES, description: 'Asset ids or data URLs of images the hits should not look like' })
  @IsOptional()
  @IsArray({ message: 'images.unlike must be an array of asset ids or data URLs' })
  @ArrayMaxSize(MAX_REFERENCE_IMAGES, { message: `images.unlike can hold at most ${MAX_REFERENCE_IMAGES} images` })
  @IsString({ each: true, message: 'images.unlike must contain asset ids or data URLs (strings)' })
  unlike?: string[];
}

const RATIO = (name: string) => ({ message: `${name} must be a number from 0 to 1` });

/** The body of POST /v1/search/assets and /v1/search/models (upstream PostSearchAssetsRequest / PostSearchModelsRequest). */
export class SearchBody {
  @ApiPropertyOptional({ description: 'Full-text query (PostgreSQL full-text search, english stemming; docs/search.md)', maxLength: 1000 })
  @IsOptional()
  @IsString({ message: 'query must be a string' })
  @MaxLength(1000, { message: 'query can be at most 1000 characters' })
  query?: string;

  @ApiPropertyOptional({ description: "Conditions joined with AND: attribute = value, != value, IN [a, b], dates > >= < <= (docs/search.md, 'filter')", maxLength: 2000 })
  @IsOptional()
  @IsString({ message: 'filter must be a string' })
  @MaxLength(2000, { message: 'filter can be at most 2000 characters' })
  filter?: string;

  @ApiPropertyOptional({ description: 'Similar to this image: an asset id or a data URL (exclusive with images)' })
  @IsOptional()
  @IsString({ message: 'image must be an asset id or a data URL' })
  image?: string;

  @ApiPropertyOptional({ type: SearchImagesBody })
  @IsOptional()
  @ValidateNested()
  @Type(() => SearchImagesBody)
  images?: SearchImagesBody;

  @ApiPropertyOptional({ minimum: 0, maximum: 1, default: 0.5, description: 'With a query and an image: hybrid score = (1 - ratio) · text + ratio · image similarity' })
  @IsOptional()
  @IsNumber({}, RATIO('imageSemanticRatio'))
  @Min(0, RATIO('imageSemanticRatio'))
  @Max(1, RATIO('imageSemanticRatio'))
  imageSemanticRatio?: number;

  @ApiPropertyOptional({
    minimum: 0,
    maximum: 1,
    description:
      'Assets, with a query, where a search embedding model is configured: query score = (1 - ratio) · text + ratio · text-to-image similarity (default 0.5; 0: full text alone). Otherwise without effect (docs/search.md, "Text to image")',
  })
  @IsOptional()
  @IsNumber({}, RATIO('querySemanticRatio'))
  @Min(0, RATIO('querySemanticRatio'))
  @Max(1, RATIO('querySemanticRatio'))
  querySemanticRatio?: number;

  @ApiPropertyOptional({ default: false, description: "Search every organisation's public items instead of the project's" })
  @IsOptional()
  @IsBoolean({ message: 'public must be true or false' })
  public?: boolean;

  @ApiPropertyOptional({ type: [String], description: "['createdAt:desc'] (createdAt or updatedAt, asc or desc); default: by score" })
  @IsOptional()
  @IsArray({ message: "sortBy must be an array like ['createdAt:desc']" })
  @ArrayMaxSize(2, { message: 'sortBy can hold at most 2 attributes' })
  @IsString({ each: true, message: "sortBy must contain strings like 'createdAt:desc'" })
  sortBy?: string[];

  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'Hits to skip (with limit; default 0)' })
  @IsOptional()
  @IsInt({ message: 'offset must be an integer ≥ 0' })
  @Min(0, { message: 'offset must be an integer ≥ 0' })
  @Max(10_000, { message: 'offset can be at most 10000' })
  offset?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, description: 'Hits to return (with offset; default 20)' })
  @IsOptional()
  @IsInt({ message: 'limit must be an integer from 1 to 100' })
  @Min(1, { message: 'limit must be an integer from 1 to 100' })
  @Max(100, { message: 'limit must be an integer from 1 to 100' })
  limit?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: 'Page number from 1 (with hitsPerPage)' })
  @IsOptional()
  @IsInt({ message: 'page must be an integer ≥ 1' })
  @Min(1, { message: 'page must be an integer ≥ 1' })
  @Max(10_000, { message: 'page can be at most 10000' })
  page?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, description: 'Hits per page (with page)' })
  @IsOptional()
  @IsInt({ message: 'hitsPerPage must be an integer from 1 to 100' })
  @Min(1, { message: 'hitsPerPage must be an integer from 1 to 100' })
  @Max(100, { message: 'hitsPerPage must be an integer from 1 to 100' })
  hitsPerPage?: number;
}

/** The paging fields of every search answer (upstream's: offset/limit always, page fields in page mode). */
export class SearchPageFields {
  @ApiProperty() offset!: number;
  @ApiProperty() limit!: number;
  @ApiPropertyOptional({
    description: 'offset/limit mode: the number of matches, counted up to offset + limit + 1000 (that number when more match: a lower bound)',
  })
  estimatedTotalHits?: number;
  @ApiPropertyOptional() page?: number;
  @ApiPropertyOptional() hitsPerPage?: number;
  @ApiPropertyOptional({ description: 'page mode: the number of matches (exact)' }) totalHits?: number;
  @ApiPropertyOptional() totalPages?: number;
}
