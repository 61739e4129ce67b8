import { randomBytes } from 'node:crypto';
import { JOBS_API, type CreateJobCommand, type JobView } from '@genasset/contracts';
import {
  startServiceHarness,
  type HarnessOptions,
  type ServiceHarness,
  type Tenant,
} from '@genasset/testing';
import { JOB_SCHEMA, JOB_SERVICE, JobServiceModule } from '../../src';

/** A service as a process composes it (runtime's ServiceDescriptor; services do not import runtime). */
export type ServiceDescriptor = HarnessOptions['services'][number];

export const JOB_DESCRIPTOR: ServiceDescriptor = {
  name: JOB_SERVICE,
  schema: JOB_SCHEMA,
  module: JobServiceModule,
  provides: [JOBS_API],
};

export interface JobHarness extends ServiceHarness {
  internalToken: string;
  /** Creates a job the way a remote creator does: `POST /internal/v1/jobs` with the internal token. */
  createJob(tenant: Tenant, overrides?: Partial<CreateJobCommand>): Promise<JobView>;
  /** `GET /v1/jobs/{jobId}` with the tenant's project member key. */
  getJob(tenant: Tenant, jobId: string): Promise<JobView>;
}

/** job-service in a real process wiring (real PostgreSQL and broker), with an internal token of its own. */
export async function startJobHarness(
  options: {
    also?: readonly ServiceDescriptor[];
    transport?: 'kafka' | 'in-process';
    /** Extra environment (job-service settings such as CREDITS_UNPLANNED_TEAMS). */
    env?: Record<string, string>;
  } = {},
): Promise<JobHarness> {
  const internalToken = `int_${randomBytes(16).toString('base64url')}`;
  const harness = await startServiceHarness({
    services: [JOB_DESCRIPTOR, ...(options.also ?? [])],
    transport: options.transport,
    env: {
      INTERNAL_API_TOKEN: internalToken,
      // Peers job-service never calls. Configured so the process gets real HTTP clients for them:
      // libs/internal-api's placeholder for an unconfigured peer currently breaks start-up.
      ASSET_SERVICE_URL: 'http://127.0.0.1:9/',
      GENERATION_SERVICE_URL: 'http://127.0.0.1:9/',
      ...options.env,
    },
  });
  return {
    ...harness,
    internalToken,
    async createJob(tenant, overrides = {}) {
      const command: CreateJobCommand = {
        tenant: { teamId: tenant.teamId, projectId: tenant.projectId, authorId: 'key_author' },
        jobType: 'upscale',
        kind: 'generation',
        input: { image: 'asset_1', scalingFactor: 2 },
        creativeUnitsCost: 5,
        ...overrides,
      };
      const res = await harness.request('POST', '/internal/v1/jobs', {
        auth: `Bearer ${internalToken}`,
        body: command,
      });
      if (res.status !== 200) throw new Error(`create job: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.job as JobView;
    },
    async getJob(tenant, jobId) {
      const res = await harness.request('GET', `/v1/jobs/${jobId}`, { auth: tenant.auth.projectMember });
      if (res.status !== 200) throw new Error(`get job: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.job as JobView;
    },
  };
}

/** Whether the job-service consumer has handled (applied or deliberately ignored) an event: its inbox mark exists. */
export async function handled(harness: ServiceHarness, eventId: string): Promise<boolean> {
  const rows = await harness.db.query(
    'SELECT 1 FROM jobs.inbox_events WHERE consumer = $1 AND event_id = $2',
    [JOB_SERVICE, eventId],
  );
  return rows.length === 1;
}
