import type { CreateJobCommand, JobView } from '@genasset/contracts';
import type { Tenant } from '@genasset/testing';
import type { JobHarness } from './job-harness';

export interface PlanBody {
  totalPeriodCreativeUnits: number;
  periodStart: string;
  periodEnd: string;
}

export interface Usage {
  teamId: string;
  metered: boolean;
  periodStart: string | null;
  periodEnd: string | null;
  totalPeriodCreativeUnits: number | null;
  remainingCreativeUnits: number | null;
  usedCreativeUnits: number;
}

const DAY = 86_400_000;

/** A period around now: started `startedDaysAgo` days ago, ending in 30 days. */
export function period(total: number, startedDaysAgo = 1): PlanBody {
  const now = Date.now();
  // Whole seconds: the same period is the same string every time it is computed.
  const start = Math.floor((now - startedDaysAgo * DAY) / 1000) * 1000;
  return {
    totalPeriodCreativeUnits: total,
    periodStart: new Date(start).toISOString(),
    periodEnd: new Date(start + 31 * DAY).toISOString(),
  };
}

/** The creative-unit routes and the job routes that move units, as a creator, an operator and a team admin call them. */
export class CreditsClient {
  constructor(private readonly harness: JobHarness) {}

  setPlan(
    teamId: string,
    body: PlanBody | Record<string, unknown>,
    auth = `Bearer ${this.harness.adminToken}`,
  ) {
    return this.harness.request('PUT', `/admin/v1/teams/${teamId}/credit-plan`, { auth, body });
  }

  async plan(teamId: string, body: PlanBody): Promise<Usage> {
    const res = await this.setPlan(teamId, body);
    if (res.status !== 200) throw new Error(`credit plan: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Usage;
  }

  async usage(tenant: Tenant): Promise<Usage> {
    const res = await this.harness.request('GET', `/v1/teams/${tenant.teamId}/usage`, {
      auth: tenant.auth.teamAdmin,
    });
    if (res.status !== 200) throw new Error(`usage: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Usage;
  }

  async remaining(tenant: Tenant): Promise<number | null> {
    return (await this.usage(tenant)).remainingCreativeUnits;
  }

  /** `POST /internal/v1/jobs` as a remote creator: the raw answer, refusals included. */
  create(tenant: Tenant, units: number, overrides: Partial<CreateJobCommand> = {}) {
    const command: CreateJobCommand = {
      tenant: { teamId: tenant.teamId, projectId: tenant.projectId, authorId: 'key_creator' },
      jobType: 'image-generation',
      kind: 'generation',
      input: { prompt: 'a lighthouse at dusk' },
      creativeUnitsCost: units,
      ...overrides,
    };
    return this.harness.request('POST', '/internal/v1/jobs', {
      auth: `Bearer ${this.harness.internalToken}`,
      body: command,
    });
  }

  /** Creates a job that the team can afford. */
  async charge(tenant: Tenant, units: number): Promise<JobView> {
    const res = await this.create(tenant, units);
    if (res.status !== 200) throw new Error(`create job: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.job as JobView;
  }

  cancel(tenant: Tenant, jobId: string) {
    return this.harness.request('POST', `/v1/jobs/${jobId}/action`, {
      auth: tenant.auth.projectMember,
      body: { action: 'cancel' },
    });
  }

  async movements(jobId: string): Promise<{ kind: string; units: number; reason: string | null }[]> {
    return this.harness.db.query(
      'SELECT kind, units, reason FROM jobs.credit_movements WHERE job_id = $1 ORDER BY id',
      [jobId],
    );
  }

  async jobCount(tenant: Tenant): Promise<number> {
    const [row] = await this.harness.db.query<{ n: string }>(
      'SELECT count(*)::text AS n FROM jobs.jobs WHERE team_id = $1',
      [tenant.teamId],
    );
    return Number(row.n);
  }
}
