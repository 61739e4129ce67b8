import { ASSETS_API } from '@genasset/contracts';
// Test-only exception to the service boundary (see collection-harness.ts): the
// real asset-service owns ASSETS_API and publishes asset.deleted.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { ASSET_SCHEMA, ASSET_SERVICE, AssetServiceModule } from '@genasset/service-asset';
import type { HarnessOptions, ServiceHarness, Tenant } from '@genasset/testing';

/** A 1×1 PNG: the smallest real image asset-service accepts as an upload. */
const PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** How the tests get assets: created and deleted through their owner. */
export interface AssetSource {
  readonly services: HarnessOptions['services'];
  create(harness: ServiceHarness, tenant: Tenant): Promise<string>;
  /** Deletes the asset the way a user does; its asset.deleted fact follows through the outbox and the broker. */
  delete(harness: ServiceHarness, tenant: Tenant, assetId: string): Promise<void>;
}

/** Assets made and deleted through asset-service's public routes, as a user does. */
export function realAssets(): AssetSource {
  return {
    services: [
      { name: ASSET_SERVICE, schema: ASSET_SCHEMA, module: AssetServiceModule, provides: [ASSETS_API] },
    ],
    async create(harness, tenant) {
      const res = await harness.request('POST', '/v1/assets', {
        auth: tenant.auth.projectMember,
        body: { image: `data:image/png;base64,${PIXEL_PNG}`, name: 'pixel.png' },
      });
      if (res.status !== 200) throw new Error(`upload: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.asset.id as string;
    },
    async delete(harness, tenant, assetId) {
      const res = await harness.request('DELETE', '/v1/assets', {
        auth: tenant.auth.projectMember,
        body: { assetIds: [assetId] },
      });
      if (res.status !== 200) throw new Error(`delete asset: ${res.status} ${JSON.stringify(res.body)}`);
    },
  };
}
