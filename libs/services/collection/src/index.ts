export { COLLECTION_SCHEMA, COLLECTION_SERVICE } from './collection.schema';
export { CollectionServiceModule } from './collection.module';
