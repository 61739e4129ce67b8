import 'reflect-metadata';
import { join } from 'node:path';
import { runProcess } from '@genasset/runtime';
import { SERVICES } from '@genasset/service-catalog';

// Every service in one process. With no DATABASE_URL / KAFKA_BROKERS / S3_* this is
// embedded mode: PGlite under DATA_DIR, the in-process transport, files under DATA_DIR.
runProcess({
  name: 'platform',
  description: 'Assets, collections, generation jobs and signed webhooks: every service in one process',
  services: SERVICES,
  adminApi: true,
  embeddedAllowed: true,
  // The web console (apps/console), built by `npm start` / `npm run console:build`.
  consoleDir: join(__dirname, '../../console/dist'),
}).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
