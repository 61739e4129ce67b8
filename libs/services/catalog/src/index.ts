import { ASSETS_API } from '@genasset/contracts';
import { MODELS_API } from '@genasset/contracts';
import { JOBS_API } from '@genasset/contracts';
import { IDENTITY_SCHEMA } from '@genasset/identity';
import type { SchemaDefinition } from '@genasset/persistence';
import type { ServiceDescriptor } from '@genasset/runtime';
import { ASSET_SCHEMA, ASSET_SERVICE, AssetServiceModule, reclaimAssetLeases } from '@genasset/service-asset';
import { COLLECTION_SCHEMA, COLLECTION_SERVICE, CollectionServiceModule } from '@genasset/service-collection';
import { GENERATION_SCHEMA, GENERATION_SERVICE, GenerationServiceModule } from '@genasset/service-generation';
import { INFERENCE_SCHEMA, INFERENCE_SERVICE, InferenceWorkerModule, reclaimWorkLeases } from '@genasset/service-inference';
import { JOB_SCHEMA, JOB_SERVICE, JobServiceModule } from '@genasset/service-job';
import { reclaimDeliveryLeases, WEBHOOK_SCHEMA, WEBHOOK_SERVICE, WebhookDispatcherModule } from '@genasset/service-webhook';


/**
 * Every service, for the two places that compose them all: the embedded
 * `platform` process and the `cli migrate` command. Single-service apps import
 * only their own service library.
 */
export const SERVICES: readonly ServiceDescriptor[] = [
  { name: ASSET_SERVICE, schema: ASSET_SCHEMA, module: AssetServiceModule, provides: [ASSETS_API], reclaimLeases: reclaimAssetLeases },
  { name: COLLECTION_SERVICE, schema: COLLECTION_SCHEMA, module: CollectionServiceModule },
  { name: GENERATION_SERVICE, schema: GENERATION_SCHEMA, module: GenerationServiceModule, provides: [MODELS_API] },
  { name: INFERENCE_SERVICE, schema: INFERENCE_SCHEMA, module: InferenceWorkerModule, reclaimLeases: reclaimWorkLeases },
  { name: JOB_SERVICE, schema: JOB_SCHEMA, module: JobServiceModule, provides: [JOBS_API] },
  { name: WEBHOOK_SERVICE, schema: WEBHOOK_SCHEMA, module: WebhookDispatcherModule, reclaimLeases: reclaimDeliveryLeases },
];

/** Identity first: services' data refers to its teams and projects. */
export const ALL_SCHEMAS: readonly SchemaDefinition[] = [IDENTITY_SCHEMA, ...SERVICES.map((s) => s.schema)];
