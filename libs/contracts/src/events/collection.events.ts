import { ArrayMaxSize, IsArray, IsIn, IsString, Matches } from 'class-validator';
import { defineEvent } from '../envelope/define-event';
import { TOPICS } from '../topics/topics';

const COLLECTION_ID = /^collection_[0-9A-Za-z]+$/;

/**
 * Items joined or left one collection (collection-service, in the transaction
 * that changed the membership). `added` are members now, `removed` are not:
 * applying it twice changes nothing. Owners keep their copy of membership
 * (`collectionIds`) from it. Key: collectionId, so one collection's changes stay in order.
 */
export class CollectionMembershipChangedData {
  @IsString()
  @Matches(COLLECTION_ID)
  collectionId!: string;

  @IsString()
  teamId!: string;

  @IsString()
  projectId!: string;

  @IsIn(['asset', 'model'])
  kind!: 'asset' | 'model';

  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  added!: string[];

  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  removed!: string[];
}

/** The collection is gone, and with it every membership. Key: collectionId. */
export class CollectionDeletedData {
  @IsString()
  @Matches(COLLECTION_ID)
  collectionId!: string;

  @IsString()
  teamId!: string;

  @IsString()
  projectId!: string;
}

export const CollectionMembershipChanged = defineEvent({
  type: 'collection.membership.changed',
  topic: TOPICS.collectionEvents,
  payload: CollectionMembershipChangedData,
  keyField: 'collectionId',
});

export const CollectionDeleted = defineEvent({
  type: 'collection.deleted',
  topic: TOPICS.collectionEvents,
  payload: CollectionDeletedData,
  keyField: 'collectionId',
});
