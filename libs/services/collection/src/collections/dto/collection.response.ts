import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

// Response shapes of the upstream reference (GetCollectionsResponse and the
// `{ collection }` bodies of the other routes), for the OpenAPI document.

export class CollectionThumbnail {
  @ApiProperty({ example: 'asset_01JD6Z3Q9V8K2M4N6P8R0T2V4X' })
  assetId!: string;

  @ApiProperty({ description: 'The asset’s resource URL (GET it for the file’s signed URL)' })
  url!: string;
}

export class CollectionView {
  @ApiProperty({ example: 'collection_01JD6Z3Q9V8K2M4N6P8R0T2V4X' })
  id!: string;

  @ApiProperty({ description: 'The collection name' })
  name!: string;

  @ApiProperty({ description: 'The owner (project) ID', example: 'proj_01JD6Z3Q9V8K2M4N6P8R0T2V4X' })
  ownerId!: string;

  @ApiPropertyOptional({
    type: CollectionThumbnail,
    description: 'The thumbnail for the collection (if any)',
  })
  thumbnail?: CollectionThumbnail;

  @ApiProperty()
  assetCount!: number;

  @ApiProperty()
  modelCount!: number;

  @ApiProperty({ description: 'assetCount + modelCount' })
  itemCount!: number;

  @ApiProperty({ example: '2026-11-21T13:00:00.000Z' })
  createdAt!: string;

  @ApiProperty({ example: '2026-11-21T13:00:00.000Z' })
  updatedAt!: string;
}

export class CollectionResponse {
  @ApiProperty({ type: CollectionView })
  collection!: CollectionView;
}

export class CollectionListResponse {
  @ApiProperty({ type: CollectionView, isArray: true })
  collections!: CollectionView[];

  @ApiPropertyOptional({
    description: 'A token to query the next page of collections (absent on the last page)',
  })
  nextPaginationToken?: string;
}
