import { WebhookReceiver, type Tenant } from '@genasset/testing';
import { startInferenceHarness, type InferenceHarness } from './inference-harness';

/** What every backend suite runs against: the harness (worker and its peers, webhooks on), a webhook receiver and a tenant with units to spend. */
export interface BackendSuite {
  harness: InferenceHarness;
  /** Where the tenant's webhook endpoints point. */
  hooks: WebhookReceiver;
  tenant: Tenant;
  /** The team's used creative units (GET /v1/teams/{team}/usage as the team admin). */
  usedUnits(): Promise<number>;
  /** GET /v1/jobs/{id} as a project member: the job. */
  job(jobId: string): Promise<any>;
  close(): Promise<void>;
}

/**
 * Starts the suite for a backend's tests: a webhook receiver, the inference harness with the
 * webhook dispatcher and `env` (no preview engine unless `env` says otherwise), and a tenant whose
 * team has a credit plan of `units` creative units for the current period.
 */
export async function startBackendSuite(env: Record<string, string>, units = 1000): Promise<BackendSuite> {
  const hooks = await WebhookReceiver.start();
  let harness: InferenceHarness | undefined;
  try {
    harness = await startInferenceHarness({ webhooks: true, env: { INFERENCE_PREVIEW: 'off', ...env } });
    const h = harness;
    const tenant = await h.tenant();
    const plan = await h.request('PUT', `/admin/v1/teams/${tenant.teamId}/credit-plan`, {
      auth: `Bearer ${h.adminToken}`,
      body: {
        totalPeriodCreativeUnits: units,
        periodStart: new Date(Date.now() - 86_400_000).toISOString(),
        periodEnd: new Date(Date.now() + 30 * 86_400_000).toISOString(),
      },
    });
    if (plan.status !== 200) throw new Error(`credit plan: ${plan.status} ${JSON.stringify(plan.body)}`);
    return {
      harness: h,
      hooks,
      tenant,
      usedUnits: async () =>
        (await h.request('GET', `/v1/teams/${tenant.teamId}/usage`, { auth: tenant.auth.teamAdmin })).body.usedCreativeUnits as number,
      job: async (jobId) => (await h.request('GET', `/v1/jobs/${jobId}`, { auth: tenant.auth.projectMember })).body.job,
      async close() {
        await h.close();
        await hooks.close();
      },
    };
  } catch (error) {
    await harness?.close();
    await hooks.close();
    throw error;
  }
}
