import { MODELS_API } from '@genasset/contracts';
// Test-only exception to the service boundary: collections are checked against
// the real owners of ASSETS_API and MODELS_API, composed in one process as
// apps/platform does. Production code of this library never imports them.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { GENERATION_SCHEMA, GENERATION_SERVICE, GenerationServiceModule } from '@genasset/service-generation';
import {
  startServiceHarness,
  type HarnessOptions,
  type ServiceHarness,
  type Tenant,
} from '@genasset/testing';
import { COLLECTION_SCHEMA, COLLECTION_SERVICE, CollectionServiceModule } from '../../src';
import { FactPublisher } from './fact-publisher';
import { realAssets } from './real-assets';

type ServiceDescriptor = HarnessOptions['services'][number];

export const COLLECTION_DESCRIPTOR: ServiceDescriptor = {
  name: COLLECTION_SERVICE,
  schema: COLLECTION_SCHEMA,
  module: CollectionServiceModule,
};
/** generation-service owns models: MODELS_API answers from its registry. */
const GENERATION_DESCRIPTOR: ServiceDescriptor = {
  name: GENERATION_SERVICE,
  schema: GENERATION_SCHEMA,
  module: GenerationServiceModule,
  provides: [MODELS_API],
};

export interface CollectionHarness extends ServiceHarness {
  /** Publishes envelopes straight to the broker (redeliveries, racing facts). */
  facts: FactPublisher;
  createAsset(tenant: Tenant): Promise<string>;
  /** Deletes an asset through its owner; the collection service hears of it through the broker. */
  deleteAsset(tenant: Tenant, assetId: string): Promise<void>;
  /** Creates a collection through the API and returns it. */
   
  createCollection(tenant: Tenant, name?: string): Promise<any>;
}

/** collection-service with asset-service and generation-service, the real owners of what it checks, on the real database and broker. */
export async function startCollectionHarness(): Promise<CollectionHarness> {
  const facts = new FactPublisher();
  const assets = realAssets();
  const harness = await startServiceHarness({
    services: [COLLECTION_DESCRIPTOR, GENERATION_DESCRIPTOR, ...assets.services],
  });
  return {
    ...harness,
    facts,
    createAsset: (tenant) => assets.create(harness, tenant),
    deleteAsset: (tenant, assetId) => assets.delete(harness, tenant, assetId),
    async createCollection(tenant, name = 'collection') {
      const res = await harness.request('POST', '/v1/collections', {
        auth: tenant.auth.projectMember,
        body: { name },
      });
      if (res.status !== 200) throw new Error(`create collection: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.collection;
    },
    async close() {
      await facts.close();
      await harness.close();
    },
  };
}
