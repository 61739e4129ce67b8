import { Injectable } from '@nestjs/common';
import { AccessPolicy, requireApiKey, type Principal } from '@genasset/auth';
import type { JobType, JobView } from '@genasset/contracts';
import { ApiError } from '@genasset/http';
import { JobRepository } from '../../jobs/job.repository';
import { toJobView } from '../../jobs/job.view';
import { JOB_TYPE_USAGE, type UsageName } from './usage-names';
import { usageWindow, type UsageWindow } from './usage-window';
import type { UsagesQuery } from './usages.query';
import { UsagesRepository, type ActivityRow, type UsageFilter } from './usages.repository';

/** Upstream's page of activity entries; `activityOffset` moves through them. */
export const ACTIVITY_PAGE = 100;
const SECTIONS = ['usages', 'consumption', 'activity'] as const;
type Section = (typeof SECTIONS)[number];
const TRAINING_TYPES = Object.entries(JOB_TYPE_USAGE)
  .filter(([, u]) => u.usage === 'models-training')
  .map(([type]) => type);

/** Every author here is an API key (the product has no user accounts). */
const userData = (authorId: string | null) => ({ isApiKey: true, ...(authorId ? { apiKeyId: authorId } : {}) });

/**
 * `GET /v1/usages` (docs/credits.md, "Usages"): a team's creative units and
 * produced assets over a period, from the ledger. A project key sees its own
 * project; a team-level key its team, optionally narrowed with `projectIds`
 * (each one of its team's projects, else 404).
 */
@Injectable()
export class UsagesService {
  constructor(
    private readonly usages: UsagesRepository,
    private readonly jobs: JobRepository,
    private readonly access: AccessPolicy,
  ) {}

  async get(principal: Principal, query: UsagesQuery) {
    const window = usageWindow(query);
    const filter = await this.filterOf(principal, query);
    const sections = sectionsOf(query.type);
    const offset = /^\d{1,9}$/.test(query.activityOffset ?? '') ? Number(query.activityOffset) : 0;
    const [usages, consumption, activity] = await Promise.all([
      sections.has('usages') ? this.series(filter, window) : undefined,
      sections.has('consumption') ? this.usages.consumption(filter, window) : undefined,
      sections.has('activity') ? this.activity(filter, window, offset) : undefined,
    ]);
    return {
      ...(usages ? { usages } : {}),
      ...(consumption
        ? { consumption: consumption.map((c) => ({ userId: c.authorId ?? '', userData: userData(c.authorId), value: c.value })) }
        : {}),
      ...(activity ? { activity } : {}),
    };
  }

  /** The page of charges, each with its job as `GET /v1/jobs/{jobId}` shows it (upstream requires the whole job). */
  private async activity(filter: UsageFilter, window: UsageWindow, offset: number) {
    const rows = await this.usages.activity(filter, window, offset, ACTIVITY_PAGE);
    const jobs = new Map(
      (await this.jobs.findManyInTeam(filter.teamId, rows.map((r) => r.jobId))).map((j) => [j.id, toJobView(j)]),
    );
    return rows.flatMap((row) => {
      const job = jobs.get(row.jobId);
      return job ? [toActivity(row, job)] : [];
    });
  }

  private async filterOf(principal: Principal, query: UsagesQuery): Promise<UsageFilter> {
    const key = requireApiKey(principal);
    const authorIds = [...new Set([...(query.userIds ?? []), ...(query.userId ? [query.userId] : [])])];
    const projectIds = query.projectIds?.length ? [...new Set(query.projectIds)] : undefined;
    for (const projectId of projectIds ?? []) {
      if (key.projectId !== null && projectId !== key.projectId) throw ApiError.notFound(`project ${projectId} not found`);
      if (key.projectId === null) await this.access.assertProjectMember(principal, projectId);
    }
    return {
      teamId: key.teamId,
      projectIds: key.projectId !== null ? [key.projectId] : projectIds,
      authorIds: authorIds.length ? authorIds : undefined,
    };
  }

  /** `creative-unit-cost` always, then one series per usage name with something in the period; zero-filled points. */
  private async series(filter: UsageFilter, window: UsageWindow) {
    const [units, produced] = await Promise.all([
      this.usages.units(filter, window),
      this.usages.produced(filter, window, TRAINING_TYPES),
    ]);
    const byName = new Map<UsageName, Map<number, number>>([['creative-unit-cost', new Map()]]);
    const add = (name: UsageName, at: Date, value: number) => {
      const points = byName.get(name) ?? new Map<number, number>();
      points.set(at.getTime(), (points.get(at.getTime()) ?? 0) + value);
      byName.set(name, points);
    };
    for (const u of units) add('creative-unit-cost', u.at, u.value);
    for (const p of produced) {
      const name = JOB_TYPE_USAGE[p.jobType as JobType]?.usage;
      if (name) add(name, p.at, p.value);
    }
    return [...byName].map(([usageName, values]) => ({
      usageName,
      granularity: window.granularity,
      points: window.points.map((at) => ({ time: at.toISOString(), value: String(values.get(at.getTime()) ?? 0) })),
    }));
  }
}

/** `type`: sections to answer; unknown or empty values fall back to all, as upstream documents. */
function sectionsOf(type: string | undefined): Set<Section> {
  const asked = (type ?? '').split(',').map((s) => s.trim());
  const known = asked.filter((s): s is Section => (SECTIONS as readonly string[]).includes(s));
  return new Set(known.length && known.length === asked.length ? known : SECTIONS);
}

function toActivity(row: ActivityRow, job: JobView) {
  return {
    action: JOB_TYPE_USAGE[row.jobType as JobType]?.action ?? 'creative-unit-cost',
    time: row.at.toISOString(),
    projectId: row.projectId,
    userId: row.authorId ?? '',
    userData: userData(row.authorId),
    creativeUnitsCost: row.cost,
    data: {
      isApiKey: true,
      job,
    },
  };
}
