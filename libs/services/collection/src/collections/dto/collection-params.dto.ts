import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { ID_PATTERNS } from '../../common/limits';

/** `{collectionId}` path segment: a malformed id is a 400 naming it, not a lookup. */
export class CollectionParams {
  @ApiProperty({ example: 'collection_01JD6Z3Q9V8K2M4N6P8R0T2V4X', pattern: ID_PATTERNS.collection.source })
  @Matches(ID_PATTERNS.collection, { message: 'collectionId must be a collection id (collection_…)' })
  collectionId!: string;
}
