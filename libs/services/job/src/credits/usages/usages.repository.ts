import { Injectable } from '@nestjs/common';
import { JobPrisma } from '../../job.prisma';
import type { UsageWindow } from './usage-window';

/** Whose usage: always one team; optionally some of its projects and authors. */
export interface UsageFilter {
  teamId: string;
  /** undefined: every project of the team. */
  projectIds?: string[];
  /** undefined: every author. */
  authorIds?: string[];
}

export interface ActivityRow {
  jobId: string;
  jobType: string;
  projectId: string;
  authorId: string | null;
  at: Date;
  cost: number;
}

/**
 * The usage reads, all from the ledger (`credit_movements`, served by its
 * (team_id, created_at) index) joined to the jobs it charged, except the
 * assets produced, read from the jobs themselves ((team_id, created_at, id) index).
 */
@Injectable()
export class UsagesRepository {
  constructor(private readonly prisma: JobPrisma) {}

  /** Units charged minus refunded, per point (by when the movement happened). */
  units(filter: UsageFilter, window: UsageWindow) {
    return this.prisma.$queryRaw<{ at: Date; value: number }[]>`
      SELECT date_bin(make_interval(secs => ${window.stepMs / 1000}::float8), m.created_at, ${window.start}::timestamptz) AS at,
             sum(CASE WHEN m.kind = 'charge' THEN m.units ELSE -m.units END)::int AS value
        FROM jobs.credit_movements m JOIN jobs.jobs j ON j.id = m.job_id
       WHERE m.team_id = ${filter.teamId} AND m.created_at >= ${window.start} AND m.created_at < ${window.end}
         AND (${filter.projectIds ?? null}::text[] IS NULL OR j.project_id = ANY(${filter.projectIds ?? null}::text[]))
         AND (${filter.authorIds ?? null}::text[] IS NULL OR j.author_id = ANY(${filter.authorIds ?? null}::text[]))
       GROUP BY 1`;
  }

  /** Assets produced by successful jobs per job type and point (trainings: trained models), by job creation. */
  produced(filter: UsageFilter, window: UsageWindow, trainingTypes: string[]) {
    return this.prisma.$queryRaw<{ jobType: string; at: Date; value: number }[]>`
      SELECT j.job_type AS "jobType",
             date_bin(make_interval(secs => ${window.stepMs / 1000}::float8), j.created_at, ${window.start}::timestamptz) AS at,
             sum(CASE WHEN j.job_type = ANY(${trainingTypes}::text[]) THEN 1 ELSE cardinality(j.asset_ids) END)::int AS value
        FROM jobs.jobs j
       WHERE j.team_id = ${filter.teamId} AND j.created_at >= ${window.start} AND j.created_at < ${window.end}
         AND j.status = 'success'
         AND (${filter.projectIds ?? null}::text[] IS NULL OR j.project_id = ANY(${filter.projectIds ?? null}::text[]))
         AND (${filter.authorIds ?? null}::text[] IS NULL OR j.author_id = ANY(${filter.authorIds ?? null}::text[]))
       GROUP BY 1, 2`;
  }

  /** Net units per author in the period, largest first. */
  consumption(filter: UsageFilter, window: UsageWindow) {
    return this.prisma.$queryRaw<{ authorId: string | null; value: number }[]>`
      SELECT j.author_id AS "authorId", sum(CASE WHEN m.kind = 'charge' THEN m.units ELSE -m.units END)::int AS value
        FROM jobs.credit_movements m JOIN jobs.jobs j ON j.id = m.job_id
       WHERE m.team_id = ${filter.teamId} AND m.created_at >= ${window.start} AND m.created_at < ${window.end}
         AND (${filter.projectIds ?? null}::text[] IS NULL OR j.project_id = ANY(${filter.projectIds ?? null}::text[]))
         AND (${filter.authorIds ?? null}::text[] IS NULL OR j.author_id = ANY(${filter.authorIds ?? null}::text[]))
       GROUP BY 1
       ORDER BY 2 DESC, 1`;
  }

  /** The charges of the period, newest first, each with what its refund gave back. */
  activity(filter: UsageFilter, window: UsageWindow, offset: number, limit: number) {
    return this.prisma.$queryRaw<ActivityRow[]>`
      SELECT j.id AS "jobId", j.job_type AS "jobType", j.project_id AS "projectId", j.author_id AS "authorId",
             c.created_at AS at,
             (c.units - coalesce(r.units, 0))::int AS cost
        FROM jobs.credit_movements c
        JOIN jobs.jobs j ON j.id = c.job_id
        LEFT JOIN jobs.credit_movements r ON r.job_id = c.job_id AND r.kind = 'refund'
       WHERE c.team_id = ${filter.teamId} AND c.kind = 'charge' AND c.created_at >= ${window.start} AND c.created_at < ${window.end}
         AND (${filter.projectIds ?? null}::text[] IS NULL OR j.project_id = ANY(${filter.projectIds ?? null}::text[]))
         AND (${filter.authorIds ?? null}::text[] IS NULL OR j.author_id = ANY(${filter.authorIds ?? null}::text[]))
       ORDER BY c.created_at DESC, c.id DESC
       OFFSET ${offset} LIMIT ${limit}`;
  }
}
