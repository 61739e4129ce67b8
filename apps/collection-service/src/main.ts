import 'reflect-metadata';
import { runProcess } from '@genasset/runtime';
import { COLLECTION_SCHEMA, COLLECTION_SERVICE, CollectionServiceModule } from '@genasset/service-collection';

// collection-service as its own process (distributed mode): DATABASE_URL, KAFKA_BROKERS, S3_* from the environment.
runProcess({
  name: COLLECTION_SERVICE,
  description: 'Collections of assets and models',
  services: [{ name: COLLECTION_SERVICE, schema: COLLECTION_SCHEMA, module: CollectionServiceModule }],
}).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
