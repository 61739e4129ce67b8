import 'reflect-metadata';
import { join } from 'node:path';
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
  // The gateway routes /console here (deploy/compose/nginx.conf): the web console's static files.
  consoleDir: join(__dirname, '../../console/dist'),
}).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
