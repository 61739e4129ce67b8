import { Inject, Injectable } from '@nestjs/common';
import type { JobKind, JobStatus, JobType } from '@genasset/contracts';
import { driverTransactionalClient, type SqlClient, type TransactionalClient } from '@genasset/messaging';
import { DATABASE_CONNECTION, TRANSACTION_OPTIONS, type DatabaseConnection } from '@genasset/persistence';
import { Prisma, type Job, type JobStatusChange } from '../generated/prisma/client';
import { JobPrisma } from '../job.prisma';

/**
 * A transaction of the job schema as a job's creation, transitions, charge and refund use it, and
 * as event handlers get it (`ctx.tx`): raw SQL on the driver (job-core.module.ts), without
 * Prisma's interactive transaction around it. A Prisma transaction client is one too.
 */
export type JobTx = SqlClient;

/** A job row with its status history, oldest first. */
export type JobRecord = Job & { history: JobStatusChange[] };

export interface NewJob {
  id: string;
  jobType: JobType;
  kind: JobKind;
  status: JobStatus;
  teamId: string;
  projectId: string;
  authorId?: string;
  modelId?: string;
  input: Record<string, unknown>;
  creativeUnitsCost: number;
  idempotencyKey?: string;
  hideResults: boolean;
  at: Date;
}

/** One change to a job: new progress, maybe a new status (one history entry), maybe results. */
export interface JobChange {
  progress: number;
  status?: JobStatus;
  output?: Record<string, unknown>;
  assetIds?: string[];
  failureReason?: string;
  /** Units of the charge consumed so far (never decreases). */
  consumedUnits?: number;
  at: Date;
}

/** Whose jobs a caller may see: a whole team (team-level key) or one project. */
export interface JobScope {
  teamId: string;
  projectId?: string;
}

export interface JobFilter {
  types?: string[];
  status?: JobStatus;
  authorId?: string;
  /** Leave out jobs created with `hideResults: true`. */
  withoutHiddenResults?: boolean;
}

/** Keyset position: the last job of the previous page. */
export interface JobCursor {
  createdAt: Date;
  id: string;
}

const WITH_HISTORY = { history: { orderBy: { id: 'asc' } } } as const satisfies Prisma.JobInclude;

/** A history entry as json_build_object renders it. */
interface HistoryJson {
  id: string;
  jobId: string;
  status: string;
  date: string;
}

const historyEntry = (h: HistoryJson): JobStatusChange => ({
  id: BigInt(h.id),
  jobId: h.jobId,
  status: h.status,
  date: new Date(h.date),
});

// Every column of the Job model, named as Prisma names its fields (what Prisma's raw queries return
// for these types): test/job-repository.int-spec.ts compares the results with Prisma's own reads.
const JOB_COLUMNS = `j.id, j.job_type AS "jobType", j.kind, j.status, j.progress, j.team_id AS "teamId",
  j.project_id AS "projectId", j.author_id AS "authorId", j.model_id AS "modelId", j.input, j.output,
  j.asset_ids AS "assetIds", j.failure_reason AS "failureReason", j.creative_units_cost AS "creativeUnitsCost",
  j.consumed_units AS "consumedUnits", j.idempotency_key AS "idempotencyKey", j.hide_results AS "hideResults", j.created_at AS "createdAt",
  j.updated_at AS "updatedAt"`;

const historyJson = (h: string) =>
  `json_build_object('id', ${h}.id::text, 'jobId', ${h}.job_id, 'status', ${h}.status, 'date', ${h}.date)`;

const LOCK_SQL = `
  SELECT ${JOB_COLUMNS},
         (SELECT coalesce(json_agg(${historyJson('h')} ORDER BY h.id), '[]'::json)
            FROM jobs.job_status_history h
           WHERE h.job_id = j.id) AS history
    FROM jobs.jobs j
   WHERE j.id = $1
     FOR UPDATE OF j`;

// A key already used in the project inserts nothing (and returns no row): the unique index arbitrates
// concurrent creates, the later one waiting for the earlier to commit or roll back.
const INSERT_SQL = `
  WITH j AS (
    INSERT INTO jobs.jobs (id, job_type, kind, status, team_id, project_id, author_id, model_id, input,
                           creative_units_cost, idempotency_key, hide_results, created_at, updated_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10::int, $11, $12::boolean, $13::timestamptz, $13::timestamptz)
    ON CONFLICT (project_id, idempotency_key) DO NOTHING
    RETURNING *
  ), h AS (
    INSERT INTO jobs.job_status_history (job_id, status, date)
    SELECT id, status, created_at FROM j
    RETURNING id, job_id, status, date
  )
  SELECT ${JOB_COLUMNS}, (SELECT ${historyJson('h')} FROM h) AS entry
    FROM j`;

// $4 status (null: progress only), $5 output (json), $6 assetIds (json array), $7 failure reason, $8 consumed units: null leaves each as it is.
const APPLY_SQL = `
  WITH j AS (
    UPDATE jobs.jobs
       SET progress = $2::float8,
           updated_at = $3::timestamptz,
           status = coalesce($4::text, status),
           output = coalesce($5::jsonb, output),
           asset_ids = CASE WHEN $6::jsonb IS NULL THEN asset_ids
                            ELSE ARRAY(SELECT jsonb_array_elements_text($6::jsonb)) END,
           failure_reason = coalesce($7::text, failure_reason),
           consumed_units = greatest(consumed_units, coalesce($8::int, consumed_units))
     WHERE id = $1
    RETURNING *
  ), h AS (
    INSERT INTO jobs.job_status_history (job_id, status, date)
    SELECT id, $4::text, $3::timestamptz FROM j WHERE $4::text IS NOT NULL
    RETURNING id, job_id, status, date
  )
  SELECT ${JOB_COLUMNS}, (SELECT ${historyJson('h')} FROM h) AS entry
    FROM j`;

/** Access to jobs and their history: raw SQL on the hot paths, Prisma for the listing routes; no decisions here. */
@Injectable()
export class JobRepository {
  private readonly db: TransactionalClient;

  constructor(
    private readonly prisma: JobPrisma,
    @Inject(DATABASE_CONNECTION) connection: DatabaseConnection,
  ) {
    this.db = driverTransactionalClient(connection);
  }

  /**
   * On the driver, bounded by the timeout every service client's transactions have
   * (`TRANSACTION_OPTIONS` of libs/persistence). Where a count matters, a statement says
   * `RETURNING`: on the driver `$executeRawUnsafe` counts the rows returned, not those changed.
   */
  transaction<T>(work: (tx: JobTx) => Promise<T>): Promise<T> {
    return this.db.$transaction(work, { timeout: TRANSACTION_OPTIONS.timeout });
  }

  /**
   * The job and its first history entry, returned as stored: one statement, where Prisma's nested
   * create with its include took four. A key already used in the project throws
   * `IdempotencyConflict` (the transaction must roll back; see `isIdempotencyConflict`).
   */
  async insert(tx: JobTx, job: NewJob): Promise<JobRecord> {
    const rows = await tx.$queryRawUnsafe<(Job & { entry: HistoryJson })[]>(
      INSERT_SQL,
      job.id,
      job.jobType,
      job.kind,
      job.status,
      job.teamId,
      job.projectId,
      job.authorId ?? null,
      job.modelId ?? null,
      JSON.stringify(job.input),
      job.creativeUnitsCost,
      job.idempotencyKey ?? null,
      job.hideResults,
      job.at.toISOString(),
    );
    if (rows.length === 0) throw new IdempotencyConflict(job.projectId);
    const { entry, ...row } = rows[0];
    return { ...row, history: [historyEntry(entry)] };
  }

  /**
   * Reads the job with its history and locks its row until the transaction ends (transitions of
   * one job are serialised): one statement, where Prisma's lock, read and include took three.
   */
  async lock(tx: JobTx, id: string): Promise<JobRecord | undefined> {
    const rows = await tx.$queryRawUnsafe<(Job & { history: HistoryJson[] })[]>(LOCK_SQL, id);
    return rows[0] && { ...rows[0], history: rows[0].history.map(historyEntry) };
  }

  /**
   * Writes one change to a job read by `lock` in this transaction (and its history entry when the
   * status changes) and returns the job as now stored: one statement, where Prisma's nested
   * write with its include took four.
   */
  async apply(tx: JobTx, job: JobRecord, change: JobChange): Promise<JobRecord> {
    const rows = await tx.$queryRawUnsafe<(Job & { entry: HistoryJson | null })[]>(
      APPLY_SQL,
      job.id,
      change.progress,
      change.at.toISOString(),
      change.status ?? null,
      change.output === undefined ? null : JSON.stringify(change.output),
      change.assetIds === undefined ? null : JSON.stringify(change.assetIds),
      change.failureReason === undefined ? null : change.failureReason,
      change.consumedUnits ?? null,
    );
    const { entry, ...row } = rows[0];
    return { ...row, history: entry ? [...job.history, historyEntry(entry)] : job.history };
  }

  async findInScope(scope: JobScope, id: string): Promise<JobRecord | undefined> {
    const job = await this.prisma.job.findFirst({
      where: { id, ...scopeWhere(scope) },
      include: WITH_HISTORY,
    });
    return job ?? undefined;
  }

  async findByIdempotencyKey(projectId: string, key: string): Promise<JobRecord | undefined> {
    const job = await this.prisma.job.findFirst({
      where: { projectId, idempotencyKey: key },
      include: WITH_HISTORY,
    });
    return job ?? undefined;
  }

  /** Newest first; `limit + 1` rows are read so the caller knows whether a next page exists. */
  list(
    scope: JobScope,
    filter: JobFilter,
    after: JobCursor | undefined,
    limit: number,
  ): Promise<JobRecord[]> {
    const where: Prisma.JobWhereInput = {
      ...scopeWhere(scope),
      ...(filter.types?.length ? { jobType: { in: filter.types } } : {}),
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.authorId ? { authorId: filter.authorId } : {}),
      ...(filter.withoutHiddenResults ? { hideResults: false } : {}),
      ...(after
        ? {
            OR: [
              { createdAt: { lt: after.createdAt } },
              { createdAt: after.createdAt, id: { lt: after.id } },
            ],
          }
        : {}),
    };
    return this.prisma.job.findMany({
      where,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit + 1,
      include: WITH_HISTORY,
    });
  }

  /** The jobs of `ids` that belong to the team, with their history (usage activity shows them whole). */
  findManyInTeam(teamId: string, ids: string[]): Promise<JobRecord[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.prisma.job.findMany({ where: { teamId, id: { in: ids } }, include: WITH_HISTORY });
  }

  /** Jobs of one project per model among `modelIds` (the project filter is the (project_id, created_at, id) index). */
  async modelJobCounts(teamId: string, projectId: string, modelIds: string[]): Promise<Record<string, number>> {
    if (modelIds.length === 0) return {};
    const rows = await this.prisma.job.groupBy({
      by: ['modelId'],
      where: { teamId, projectId, modelId: { in: modelIds } },
      _count: { _all: true },
    });
    return Object.fromEntries(rows.filter((r) => r.modelId).map((r) => [r.modelId as string, r._count._all]));
  }
}

function scopeWhere(scope: JobScope): Prisma.JobWhereInput {
  return scope.projectId ? { teamId: scope.teamId, projectId: scope.projectId } : { teamId: scope.teamId };
}

/** A unique violation on (project_id, idempotency_key): a concurrent create with the same key won. */
/** A create whose idempotency key the project already used (another create committed it first). */
export class IdempotencyConflict extends Error {
  constructor(projectId: string) {
    super(`idempotency key already used in project ${projectId}`);
  }
}

export function isIdempotencyConflict(error: unknown): boolean {
  return error instanceof IdempotencyConflict;
}
