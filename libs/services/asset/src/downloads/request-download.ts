import { Inject, Injectable } from '@nestjs/common';
import { InternalApiError, JOBS_API, type JobsApi, type JobView } from '@genasset/contracts';
import { ApiError } from '@genasset/http';
import { formatBytes } from '../core/limits';
import type { ProjectScope } from '../core/tenant-scope';
import { BatchAssetsRepository } from './batch-assets.repository';
import { DOWNLOAD_JOB_KIND } from './download-work.controller';
import { DOWNLOAD_LIMITS } from './download-limits';
import type { DownloadOptions } from './download.repository';
import type { DownloadAssetsBody } from './dto/download-assets.body';

/** job-service's job type for batch downloads (upstream's). */
export const DOWNLOAD_JOB_TYPE = 'assets-download';

/**
 * POST /v1/assets/download. Everything is checked before the job exists:
 * the ids are the project's (else 404 naming the others), the batch holds 1
 * to 1000 assets (else 400), their sizes fit an archive. Then job-service
 * creates the job (free) and announces it — `job.created` becomes
 * `asset.download.created`, `job.work.requested` reaches this service's
 * download workers. A refused request creates nothing.
 */
@Injectable()
export class RequestDownload {
  constructor(
    @Inject(JOBS_API) private readonly jobs: JobsApi,
    private readonly batch: BatchAssetsRepository,
  ) {}

  async execute(scope: ProjectScope, body: DownloadAssetsBody): Promise<{ jobId: string; job: JobView }> {
    if (body.assetIds !== undefined && body.query?.assetIds !== undefined) {
      throw ApiError.validation([
        { field: 'assetIds', messages: ['give assetIds or query.assetIds, not both'] },
      ]);
    }
    const requested = [...new Set(body.assetIds ?? body.query?.assetIds ?? [])];
    const inferenceIds = [...new Set(body.query?.inferenceIds ?? [])];
    const modelIds = [...new Set(body.query?.modelIds ?? [])];
    const field = body.assetIds !== undefined ? 'assetIds' : 'query.assetIds';
    if (requested.length === 0 && inferenceIds.length === 0 && modelIds.length === 0) {
      throw ApiError.validation([
        { field, messages: [`${field} must list 1 to ${DOWNLOAD_LIMITS.maxAssets} asset ids`] },
      ]);
    }

    const owned = await this.batch.owned(scope.projectId, requested);
    if (owned.length !== requested.length) {
      const found = new Set(owned.map((a) => a.id));
      const missing = requested.filter((id) => !found.has(id));
      throw new ApiError(
        404,
        'not_found',
        `asset${missing.length > 1 ? 's' : ''} not found: ${missing.join(', ')}; no download was started`,
        {
          assetIds: missing,
        },
      );
    }
    const sizes = new Map(owned.map((a) => [a.id, a.size]));
    const fromSources = await this.batch.fromSources(
      scope.projectId,
      inferenceIds,
      modelIds,
      DOWNLOAD_LIMITS.maxAssets + 1,
    );
    for (const a of fromSources) sizes.set(a.id, a.size);
    const assetIds = [...new Set([...requested, ...fromSources.map((a) => a.id)])];

    if (assetIds.length > DOWNLOAD_LIMITS.maxAssets) {
      throw ApiError.validation([
        {
          field: 'query',
          messages: [
            `a batch download holds at most ${DOWNLOAD_LIMITS.maxAssets} assets; this request selects more`,
          ],
        },
      ]);
    }
    if (assetIds.length === 0) {
      throw ApiError.validation([
        {
          field: 'query',
          messages: [
            'the request selects no asset: the inferences and models given have no asset in this project',
          ],
        },
      ]);
    }
    const total = assetIds.reduce((sum, id) => sum + (sizes.get(id) ?? 0), 0);
    if (total > DOWNLOAD_LIMITS.maxArchiveBytes) {
      throw new ApiError(
        400,
        'archive_too_large',
        `the selected assets hold ${formatBytes(total)}, more than an archive may (${formatBytes(DOWNLOAD_LIMITS.maxArchiveBytes)}); split the download`,
        { limit: DOWNLOAD_LIMITS.maxArchiveBytes, size: total },
      );
    }

    const options: DownloadOptions = {
      ...(body.options?.fileNameTemplate ? { fileNameTemplate: body.options.fileNameTemplate } : {}),
      ...(body.options?.flat !== undefined ? { flat: body.options.flat } : {}),
    };
    try {
      const job = await this.jobs.createJob({
        tenant: { teamId: scope.teamId, projectId: scope.projectId, authorId: scope.authorId },
        jobType: DOWNLOAD_JOB_TYPE,
        kind: DOWNLOAD_JOB_KIND,
        input: { assetIds, options },
        creativeUnitsCost: 0,
      });
      return { jobId: job.jobId, job };
    } catch (error) {
      throw publicError(error);
    }
  }
}

/** Statuses of job-service's answers a client can act on; a 400 means this service sent a bad command (500). */
const PASSED_THROUGH = new Set([402, 404, 409, 429, 503]);

export function publicError(error: unknown): unknown {
  if (!(error instanceof InternalApiError)) return error;
  if (PASSED_THROUGH.has(error.status))
    return new ApiError(error.status, error.apiError, error.message, error.infos, { cause: error });
  return ApiError.internal(error);
}
