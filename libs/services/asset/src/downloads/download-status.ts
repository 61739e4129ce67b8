import { Inject, Injectable } from '@nestjs/common';
import { JOBS_API, type JobsApi } from '@genasset/contracts';
import { ApiError } from '@genasset/http';
import type { ProjectScope } from '../core/tenant-scope';
import type { DownloadStatusView } from './dto/download-assets.body';
import { DOWNLOAD_JOB_TYPE, publicError } from './request-download';

/**
 * GET /v1/assets/download/{jobId}: the job as job-service has it (it owns
 * job state), in upstream's shape. Another project's job, or a job that is
 * not a batch download, is a 404 like an unknown id.
 */
@Injectable()
export class DownloadStatus {
  constructor(@Inject(JOBS_API) private readonly jobs: JobsApi) {}

  async execute(scope: ProjectScope, jobId: string): Promise<DownloadStatusView> {
    const job = await this.jobs
      .getJob({ teamId: scope.teamId, projectId: scope.projectId }, jobId)
      .catch((error: unknown) => {
        throw publicError(error);
      });
    if (!job || job.jobType !== DOWNLOAD_JOB_TYPE)
      throw ApiError.notFound(`download job ${jobId} not found`, jobId);
    const output = job.metadata.output ?? {};
    const view: DownloadStatusView = { jobId: job.jobId, jobStatus: job.status, progress: job.progress };
    if (job.status === 'success' && typeof output.downloadUrl === 'string') {
      view.downloadUrl = output.downloadUrl;
      if (typeof output.expiresAt === 'string') view.expiresAt = output.expiresAt;
      if (Array.isArray(output.skippedAssetIds) && output.skippedAssetIds.length)
        view.skippedAssetIds = output.skippedAssetIds as string[];
    }
    if (job.status === 'failure' && typeof output.errorMessage === 'string')
      view.errorMessage = output.errorMessage;
    return view;
  }
}
