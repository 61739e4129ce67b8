import { Injectable } from '@nestjs/common';
import type { JobKind, JobStatus, JobType } from '@genasset/contracts';
import { Prisma, type Job, type JobStatusChange } from '../generated/prisma/client';
import { JobPrisma } from '../job.prisma';

/** The transaction client of the job schema (also what event handlers get as `ctx.tx`). */
export type JobTx = Prisma.TransactionClient;

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

/** Prisma access to jobs and their history; no decisions here. */
@Injectable()
export class JobRepository {
  constructor(private readonly prisma: JobPrisma) {}

  /** With the limits every service client has (`TRANSACTION_OPTIONS` of libs/persistence). */
  transaction<T>(work: (tx: JobTx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(work);
  }

  insert(tx: JobTx, job: NewJob): Promise<JobRecord> {
    const { at, input, ...fields } = job;
    return tx.job.create({
      data: {
        ...fields,
        input: input as Prisma.InputJsonObject,
        createdAt: at,
        updatedAt: at,
        history: { create: [{ status: job.status, date: at }] },
      },
      include: WITH_HISTORY,
    });
  }

  /** Reads the job and locks its row until the transaction ends (transitions of one job are serialised). */
  async lock(tx: JobTx, id: string): Promise<JobRecord | undefined> {
    const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM jobs.jobs WHERE id = ${id} FOR UPDATE`;
    if (rows.length === 0) return undefined;
    return (await tx.job.findUnique({ where: { id }, include: WITH_HISTORY })) ?? undefined;
  }

  apply(tx: JobTx, id: string, change: JobChange): Promise<JobRecord> {
    return tx.job.update({
      where: { id },
      data: {
        progress: change.progress,
        updatedAt: change.at,
        ...(change.status
          ? { status: change.status, history: { create: [{ status: change.status, date: change.at }] } }
          : {}),
        ...(change.output ? { output: change.output as Prisma.InputJsonObject } : {}),
        ...(change.assetIds ? { assetIds: change.assetIds } : {}),
        ...(change.failureReason !== undefined ? { failureReason: change.failureReason } : {}),
      },
      include: WITH_HISTORY,
    });
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
}

function scopeWhere(scope: JobScope): Prisma.JobWhereInput {
  return scope.projectId ? { teamId: scope.teamId, projectId: scope.projectId } : { teamId: scope.teamId };
}

/** A unique violation on (project_id, idempotency_key): a concurrent create with the same key won. */
export function isIdempotencyConflict(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';
}
