import { createHash, randomBytes } from 'node:crypto';
import { ASSETS_API, JOBS_API } from '@genasset/contracts';
// Test-only exception to the service boundary: batch downloads are tested against the real
// owner of JOBS_API, composed in one process as apps/platform does. Production code never imports it.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { JOB_SCHEMA, JOB_SERVICE, JobServiceModule } from '@genasset/service-job';
import {
  startServiceHarness,
  type HarnessOptions,
  type ServiceHarness,
} from '@genasset/testing';
import { ASSET_SCHEMA, ASSET_SERVICE, AssetServiceModule } from '../../src';

type ServiceDescriptor = HarnessOptions['services'][number];

export const ASSET_DESCRIPTOR: ServiceDescriptor = {
  name: ASSET_SERVICE,
  schema: ASSET_SCHEMA,
  module: AssetServiceModule,
  provides: [ASSETS_API],
};
export const JOB_DESCRIPTOR: ServiceDescriptor = {
  name: JOB_SERVICE,
  schema: JOB_SCHEMA,
  module: JobServiceModule,
  provides: [JOBS_API],
};

/** asset-service and job-service in one process (as apps/platform runs them) on the real PostgreSQL, broker and S3 server. */
export function startDownloadHarness(
  env: Record<string, string> = {},
  transport?: 'kafka' | 'in-process',
): Promise<ServiceHarness> {
  return startServiceHarness({
    services: [ASSET_DESCRIPTOR, JOB_DESCRIPTOR],
    transport,
    env: { INTERNAL_API_TOKEN: `int_${randomBytes(16).toString('base64url')}`, ...env },
  });
}

export { unzip, type ZipEntry } from '@genasset/testing';

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
