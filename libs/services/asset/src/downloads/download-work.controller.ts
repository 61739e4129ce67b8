import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import {
  JobWorkCanceled,
  JobWorkRequested,
  TOPICS,
  type EventEnvelope,
  type JobWorkCanceledData,
  type JobWorkRequestedData,
} from '@genasset/contracts';
import { EventContext, OnEvent } from '@genasset/messaging';
import { ASSET_SERVICE } from '../asset.schema';
import { isAssetId } from '../core/asset-ids';
import type { Prisma } from '../generated/prisma/client';
import { DOWNLOAD_LIMITS } from './download-limits';
import { DownloadReports } from './download-reports';
import { DownloadRepository, type DownloadOptions } from './download.repository';

/** asset-service executes the jobs of this kind (job-service owns them). */
export const DOWNLOAD_JOB_KIND = 'asset-download';

/** Work of every other kind (generations, trainings) passes by here: skipped before any transaction. */
const isDownload = (envelope: EventEnvelope<{ kind: string }>): boolean =>
  envelope.data.kind === DOWNLOAD_JOB_KIND;

/**
 * Archive work from job-service (`job.work.v1`). The handler only records
 * the work in `asset_downloads` — with its inbox mark, in one short
 * transaction — and the download workers build the archive later; a crash
 * in between loses nothing. Work of other kinds is not this service's.
 */
@Controller()
export class DownloadWorkController {
  constructor(
    private readonly downloads: DownloadRepository,
    private readonly reports: DownloadReports,
  ) {}

  @OnEvent(TOPICS.jobWork, { consumer: ASSET_SERVICE, types: [JobWorkRequested.type], when: isDownload })
  async requested(
    @Payload() envelope: EventEnvelope<JobWorkRequestedData>,
    @Ctx() ctx: EventContext<Prisma.TransactionClient>,
  ): Promise<void> {
    const work = envelope.data;
    if (work.kind !== DOWNLOAD_JOB_KIND) return;
    const input = parseInput(work.input);
    if (typeof input === 'string') {
      // Only a creator bug gets here (POST /v1/assets/download validates): fail the job, never retry it.
      await this.downloads.recordFailed(ctx.tx, work, input);
      await this.reports.failed(ctx.tx, work.jobId, input);
      return;
    }
    await this.downloads.enqueue(ctx.tx, { jobId: work.jobId, tenant: work.tenant, ...input });
  }

  @OnEvent(TOPICS.jobWork, { consumer: ASSET_SERVICE, types: [JobWorkCanceled.type], when: isDownload })
  async canceled(
    @Payload() envelope: EventEnvelope<JobWorkCanceledData>,
    @Ctx() ctx: EventContext<Prisma.TransactionClient>,
  ): Promise<void> {
    if (envelope.data.kind !== DOWNLOAD_JOB_KIND) return;
    await this.downloads.cancel(ctx.tx, envelope.data.jobId);
  }
}

/** The job input written by RequestDownload, checked again at the edge: the work or why it cannot run. */
export function parseInput(
  input: Record<string, unknown>,
): { assetIds: string[]; options: DownloadOptions } | string {
  const ids = input.assetIds;
  if (
    !Array.isArray(ids) ||
    ids.length === 0 ||
    ids.length > DOWNLOAD_LIMITS.maxAssets ||
    !ids.every(isAssetId)
  ) {
    return `invalid download request: assetIds must hold 1 to ${DOWNLOAD_LIMITS.maxAssets} asset ids`;
  }
  const raw = (input.options ?? {}) as Record<string, unknown>;
  const options: DownloadOptions = {};
  if (
    typeof raw.fileNameTemplate === 'string' &&
    raw.fileNameTemplate.length <= DOWNLOAD_LIMITS.templateLength
  ) {
    options.fileNameTemplate = raw.fileNameTemplate;
  }
  if (typeof raw.flat === 'boolean') options.flat = raw.flat;
  return { assetIds: [...new Set(ids as string[])], options };
}
