import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { ASSETS_API, JOBS_API, MODELS_API } from '@genasset/contracts';
// Test-only exception to the service boundary: generation is tested against the
// real owners of JOBS_API and ASSETS_API, composed in one process as apps/platform
// does. Production code of this library never imports them.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { ASSET_SCHEMA, ASSET_SERVICE, AssetServiceModule } from '@genasset/service-asset';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { INFERENCE_SCHEMA, INFERENCE_SERVICE, InferenceWorkerModule } from '@genasset/service-inference';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { JOB_SCHEMA, JOB_SERVICE, JobServiceModule } from '@genasset/service-job';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { WEBHOOK_SCHEMA, WEBHOOK_SERVICE, WebhookDispatcherModule } from '@genasset/service-webhook';
import { S3ObjectStore } from '@genasset/storage';
import {
  startServiceHarness,
  testServices,
  type HarnessOptions,
  type ServiceHarness,
  type Tenant,
} from '@genasset/testing';
import { GENERATION_SCHEMA, GENERATION_SERVICE, GenerationServiceModule } from '../../src';

type ServiceDescriptor = HarnessOptions['services'][number];

export const GENERATION_DESCRIPTOR: ServiceDescriptor = {
  name: GENERATION_SERVICE,
  schema: GENERATION_SCHEMA,
  module: GenerationServiceModule,
  provides: [MODELS_API],
};
const JOB_DESCRIPTOR: ServiceDescriptor = {
  name: JOB_SERVICE,
  schema: JOB_SCHEMA,
  module: JobServiceModule,
  provides: [JOBS_API],
};
const ASSET_DESCRIPTOR: ServiceDescriptor = {
  name: ASSET_SERVICE,
  schema: ASSET_SCHEMA,
  module: AssetServiceModule,
  provides: [ASSETS_API],
};

/** A small real PNG as a data URL (sharp-made, so every decoder reads it). */
export async function pngDataUrl(width = 64, height = 64, colour = '#3366cc'): Promise<string> {
  const png = await sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

export interface GenerationHarness extends ServiceHarness {
  /** Uploads an image through asset-service (POST /v1/assets) and returns its id. */
  uploadAsset(tenant: Tenant): Promise<string>;
  /** Jobs of the project in job-service's table (what a dry run must not add to). */
  countJobs(projectId: string): Promise<number>;
  /** Keys of claim-checked inputs stored for the project. */
  storedInputs(projectId: string): Promise<string[]>;
}

const INFERENCE_DESCRIPTOR: ServiceDescriptor = { name: INFERENCE_SERVICE, schema: INFERENCE_SCHEMA, module: InferenceWorkerModule };
const WEBHOOK_DESCRIPTOR: ServiceDescriptor = { name: WEBHOOK_SERVICE, schema: WEBHOOK_SCHEMA, module: WebhookDispatcherModule };

/**
 * generation-service with job-service and asset-service in one process, on the real database,
 * broker and S3 server; `worker: true` adds the inference-worker (its built-in engines run the jobs),
 * `webhooks: true` the webhook dispatcher (http and private targets allowed).
 */
export async function startGenerationHarness(
  env: Record<string, string> = {},
  options: { worker?: boolean; webhooks?: boolean } = {},
): Promise<GenerationHarness> {
  const harness = await startServiceHarness({
    services: [
      GENERATION_DESCRIPTOR,
      JOB_DESCRIPTOR,
      ASSET_DESCRIPTOR,
      ...(options.worker ? [INFERENCE_DESCRIPTOR] : []),
      ...(options.webhooks ? [WEBHOOK_DESCRIPTOR] : []),
    ],
    env: {
      INTERNAL_API_TOKEN: `int_${randomBytes(16).toString('base64url')}`,
      GENERATION_RESULT_WAIT: '0',
      ...(options.worker ? { INFERENCE_POLL_INTERVAL: '200ms', INFERENCE_RETRY_DELAY: '100ms', INFERENCE_PROGRESS_INTERVAL: '0' } : {}),
      ...(options.webhooks
        ? { WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'), WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }
        : {}),
      ...env,
    },
  });
  const image = await pngDataUrl(32, 32, '#cc6633');
  const s3 = testServices().s3;
  const store = new S3ObjectStore({ ...s3, forcePathStyle: true });
  return {
    ...harness,
    async uploadAsset(tenant) {
      const res = await harness.request('POST', '/v1/assets', {
        auth: tenant.auth.projectMember,
        body: { image, name: 'input.png' },
      });
      if (res.status !== 200) throw new Error(`upload: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.asset.id as string;
    },
    async countJobs(projectId) {
      const rows = await harness.db.query<{ n: string }>(
        'SELECT count(*)::text AS n FROM jobs.jobs WHERE project_id = $1',
        [projectId],
      );
      return Number(rows[0].n);
    },
    async close() {
      await store.close();
      await harness.close();
    },
    async storedInputs(projectId) {
      const keys: string[] = [];
      for await (const key of store.list(`generation-inputs/${projectId}/`)) keys.push(key);
      return keys;
    },
  };
}
