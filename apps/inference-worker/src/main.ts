import 'reflect-metadata';
import { runProcess } from '@genasset/runtime';
import { INFERENCE_SCHEMA, INFERENCE_SERVICE, InferenceWorkerModule, reclaimWorkLeases } from '@genasset/service-inference';

// inference-worker as its own process (distributed mode): DATABASE_URL, KAFKA_BROKERS, S3_* from the environment.
runProcess({
  name: INFERENCE_SERVICE,
  description: 'Runs generation, training and export engines',
  services: [{ name: INFERENCE_SERVICE, schema: INFERENCE_SCHEMA, module: InferenceWorkerModule, reclaimLeases: reclaimWorkLeases }],
}).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
