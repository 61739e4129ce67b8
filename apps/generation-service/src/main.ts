import 'reflect-metadata';
import { MODELS_API } from '@genasset/contracts';
import { runProcess } from '@genasset/runtime';
import { GENERATION_SCHEMA, GENERATION_SERVICE, GenerationServiceModule } from '@genasset/service-generation';

// generation-service as its own process (distributed mode): DATABASE_URL, KAFKA_BROKERS, S3_* from the environment.
runProcess({
  name: GENERATION_SERVICE,
  description: 'Generation requests and models',
  services: [{ name: GENERATION_SERVICE, schema: GENERATION_SCHEMA, module: GenerationServiceModule, provides: [MODELS_API] }],
}).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
