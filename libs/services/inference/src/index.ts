export { INFERENCE_SCHEMA, INFERENCE_SERVICE } from './inference.schema';
export { InferenceWorkerModule } from './inference.module';
export { reclaimWorkLeases } from './work/work-queue.repository';
