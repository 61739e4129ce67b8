import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { ASSETS_API, JOBS_API, MODELS_API, type CreateJobCommand, type JobView } from '@genasset/contracts';
// Test-only exception to the service boundary: the worker is tested against the real owners of
// jobs, assets and generate routes, composed in one process as apps/platform does. Production
// code of this library never imports them.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { ASSET_SCHEMA, ASSET_SERVICE, AssetServiceModule } from '@genasset/service-asset';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { GENERATION_SCHEMA, GENERATION_SERVICE, GenerationServiceModule } from '@genasset/service-generation';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { JOB_SCHEMA, JOB_SERVICE, JobServiceModule } from '@genasset/service-job';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { WEBHOOK_SCHEMA, WEBHOOK_SERVICE, WebhookDispatcherModule } from '@genasset/service-webhook';
import {
  startServiceHarness,
  waitFor,
  type HarnessOptions,
  type ServiceHarness,
  type Tenant,
} from '@genasset/testing';
import { INFERENCE_SCHEMA, INFERENCE_SERVICE, InferenceWorkerModule } from '../../src';

type ServiceDescriptor = HarnessOptions['services'][number];

const SERVICES: Record<string, ServiceDescriptor> = {
  inference: { name: INFERENCE_SERVICE, schema: INFERENCE_SCHEMA, module: InferenceWorkerModule },
  job: { name: JOB_SERVICE, schema: JOB_SCHEMA, module: JobServiceModule, provides: [JOBS_API] },
  asset: {
    name: ASSET_SERVICE,
    schema: ASSET_SCHEMA,
    module: AssetServiceModule,
    provides: [ASSETS_API],
  },
  generation: {
    name: GENERATION_SERVICE,
    schema: GENERATION_SCHEMA,
    module: GenerationServiceModule,
    provides: [MODELS_API],
  },
  webhook: { name: WEBHOOK_SERVICE, schema: WEBHOOK_SCHEMA, module: WebhookDispatcherModule },
};

export interface InferenceHarness extends ServiceHarness {
  internalToken: string;
  /** Creates a job as a remote creator does (POST /internal/v1/jobs): for tests that feed the worker directly. */
  createJob(tenant: Tenant, command: Partial<CreateJobCommand>): Promise<JobView>;
  /** Uploads a PNG through POST /v1/assets; returns the asset id. */
  upload(tenant: Tenant, png: Buffer, name?: string): Promise<string>;
  /** POST /v1/generate/{mode}: the 200 body (fails the test on any other status). */

  generate(tenant: Tenant, mode: string, body: Record<string, unknown>): Promise<Record<string, any>>;
  /** Waits until the job is final (success, failure, canceled) and returns it. */
  finalJob(tenant: Tenant, jobId: string, timeoutMs?: number): Promise<JobView>;
  /** GET /v1/assets/{id} → the asset. */

  asset(tenant: Tenant, assetId: string): Promise<Record<string, any>>;
  /** The original bytes of an asset, fetched from its signed URL. */
  assetBytes(tenant: Tenant, assetId: string): Promise<Buffer>;
}

/**
 * inference-worker with job-, asset- and generation-service (and the webhook
 * dispatcher with `webhooks: true`) in one process, on the real PostgreSQL,
 * broker and S3 server: requests go through the public generate routes.
 */
export async function startInferenceHarness(
  /** `worker: false`: no inference-worker in the process (tests that run it as its own OS process). */
  options: { env?: Record<string, string>; webhooks?: boolean; worker?: boolean } = {},
): Promise<InferenceHarness> {
  const internalToken = `int_${randomBytes(16).toString('base64url')}`;
  const harness = await startServiceHarness({
    services: [
      SERVICES.generation,
      SERVICES.job,
      SERVICES.asset,
      ...(options.worker === false ? [] : [SERVICES.inference]),
      ...(options.webhooks ? [SERVICES.webhook] : []),
    ],
    env: {
      INTERNAL_API_TOKEN: internalToken,
      GENERATION_RESULT_WAIT: '0',
      INFERENCE_POLL_INTERVAL: '200ms',
      INFERENCE_RETRY_DELAY: '100ms',
      INFERENCE_PROGRESS_INTERVAL: '0',
      ...(options.webhooks
        ? {
            WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
            WEBHOOK_ALLOW_HTTP: 'true',
            WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
          }
        : {}),
      ...options.env,
    },
  });
  const self: InferenceHarness = {
    ...harness,
    internalToken,
    async createJob(tenant, command) {
      const res = await harness.request('POST', '/internal/v1/jobs', {
        auth: `Bearer ${internalToken}`,
        body: {
          tenant: { teamId: tenant.teamId, projectId: tenant.projectId, authorId: 'key_test' },
          jobType: 'pixelate',
          kind: 'generation',
          input: {},
          creativeUnitsCost: 1,
          ...command,
        },
      });
      if (res.status !== 200) throw new Error(`create job: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.job as JobView;
    },
    async upload(tenant, png, name = 'input.png') {
      const res = await harness.request('POST', '/v1/assets', {
        auth: tenant.auth.projectMember,
        body: { image: `data:image/png;base64,${png.toString('base64')}`, name },
      });
      if (res.status !== 200) throw new Error(`upload: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.asset.id as string;
    },
    async generate(tenant, mode, body) {
      const res = await harness.request('POST', `/v1/generate/${mode}`, {
        auth: tenant.auth.projectMember,
        body,
      });
      if (res.status !== 200) throw new Error(`generate ${mode}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body;
    },
    async finalJob(tenant, jobId, timeoutMs = 60_000) {
      return waitFor(
        async () => {
          const res = await harness.request('GET', `/v1/jobs/${jobId}`, { auth: tenant.auth.projectMember });
          const job = res.body?.job as JobView | undefined;
          return job && ['success', 'failure', 'canceled'].includes(job.status) ? job : undefined;
        },
        { timeoutMs, intervalMs: 100, what: `job ${jobId} to finish` },
      );
    },
    async asset(tenant, assetId) {
      const res = await harness.request('GET', `/v1/assets/${assetId}?originalAssets=true`, {
        auth: tenant.auth.projectMember,
      });
      if (res.status !== 200) throw new Error(`asset ${assetId}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.asset;
    },
    async assetBytes(tenant, assetId) {
      const asset = await self.asset(tenant, assetId);
      const res = await fetch(asset.url as string);
      if (!res.ok) throw new Error(`asset ${assetId} content: ${res.status}`);
      return Buffer.from(await res.arrayBuffer());
    },
  };
  return self;
}

/** Raw RGBA of an encoded image. */
export async function rgba(bytes: Buffer): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** A PNG from a per-pixel painter. */
export async function paint(
  width: number,
  height: number,
  colour: (x: number, y: number) => number[],
): Promise<Buffer> {
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) data.set(colour(x, y).slice(0, 3), (y * width + x) * 3);
  return sharp(data, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
}
