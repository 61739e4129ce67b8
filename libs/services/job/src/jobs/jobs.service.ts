import { Injectable, Logger } from '@nestjs/common';
import type { JobView } from '@genasset/contracts';
import { AccessPolicy, requireApiKey, type Principal } from '@genasset/auth';
import { ApiError } from '@genasset/http';
import { DEFAULT_PAGE_SIZE, type ListJobsQuery } from './dto/list-jobs.query';
import { JobTransitions } from './job-transitions';
import { toJobView } from './job.view';
import { JobRepository, type JobScope } from './job.repository';
import { decodeCursor, encodeCursor } from './pagination-token';

/**
 * The public job routes. A project key sees its project's jobs; a team-level
 * key sees every job of its team, or, naming one with `projectId` (the rule
 * of AccessPolicy.actingProject), its project's. Anything else — another tenant's job, or an
 * id that does not exist — is the same 404.
 */
@Injectable()
export class JobsService {
  private readonly logger = new Logger('Jobs');

  constructor(
    private readonly jobs: JobRepository,
    private readonly transitions: JobTransitions,
    private readonly access: AccessPolicy,
  ) {}

  async get(principal: Principal, jobId: string): Promise<JobView> {
    const job = await this.jobs.findInScope(scopeOf(principal), jobId);
    if (!job) throw ApiError.notFound('Job', jobId);
    return toJobView(job);
  }

  async list(
    principal: Principal,
    query: ListJobsQuery,
  ): Promise<{ jobs: JobView[]; nextPaginationToken?: string }> {
    const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
    const after = query.paginationToken ? decodeCursor(query.paginationToken) : undefined;
    const types = query.types?.length ? query.types : query.type ? [query.type] : undefined;
    const scope: JobScope =
      query.projectId === undefined
        ? scopeOf(principal)
        : await this.access.actingProject(principal, query.projectId).then(({ teamId, projectId }) => ({ teamId, projectId }));
    const rows = await this.jobs.list(
      scope,
      {
        types,
        status: query.status,
        authorId: query.authorId,
        withoutHiddenResults: query.hideResults === 'false',
      },
      after,
      pageSize,
    );
    const page = rows.slice(0, pageSize);
    const last = page[page.length - 1];
    return {
      jobs: page.map(toJobView),
      ...(rows.length > pageSize && last
        ? { nextPaginationToken: encodeCursor({ createdAt: last.createdAt, id: last.id }) }
        : {}),
    };
  }

  /** Cancels a non-final job: `job.canceled` fact and refund in the same transaction; 409 for a final one. */
  async cancel(principal: Principal, jobId: string): Promise<JobView> {
    const scope = scopeOf(principal);
    const outcome = await this.jobs.transaction((tx) =>
      this.transitions.apply(tx, jobId, { type: 'cancel' }, scope),
    );
    switch (outcome.kind) {
      case 'missing':
        throw ApiError.notFound('Job', jobId);
      case 'refused':
      case 'unchanged':
        throw ApiError.conflict(`Job ${jobId} cannot be canceled: it is already ${outcome.job.status}`, {
          jobId,
          status: outcome.job.status,
        });
      case 'applied':
        this.logger.log(`job ${jobId} canceled (was ${outcome.from})`);
        return toJobView(outcome.job);
    }
  }
}

function scopeOf(principal: Principal): JobScope {
  const key = requireApiKey(principal);
  return key.projectId ? { teamId: key.teamId, projectId: key.projectId } : { teamId: key.teamId };
}
