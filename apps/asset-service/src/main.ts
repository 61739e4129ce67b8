import 'reflect-metadata';
import { ASSETS_API } from '@genasset/contracts';
import { runProcess } from '@genasset/runtime';
import { ASSET_SCHEMA, ASSET_SERVICE, AssetServiceModule, reclaimAssetLeases } from '@genasset/service-asset';

// asset-service as its own process (distributed mode): DATABASE_URL, KAFKA_BROKERS, S3_* from the environment.
runProcess({
  name: ASSET_SERVICE,
  description: 'Assets: upload, list, canvases, tags, downloads',
  services: [
    { name: ASSET_SERVICE, schema: ASSET_SCHEMA, module: AssetServiceModule, provides: [ASSETS_API], reclaimLeases: reclaimAssetLeases },
  ],
}).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
