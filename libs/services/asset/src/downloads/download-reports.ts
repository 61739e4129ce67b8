import { Injectable } from '@nestjs/common';
import { JobFailedReported, JobProgressReported, JobSucceededReported } from '@genasset/contracts';
import { Outbox } from '@genasset/messaging';
import type { Prisma } from '../generated/prisma/client';
import { DownloadRepository } from './download.repository';

/** What a finished archive reports as the job's output (shown as the job's `metadata.output`). */
export interface DownloadOutput {
  /** Signed URL of the zip file (also on the `job.succeeded` fact → `asset.download.completed`). */
  downloadUrl: string;
  /** When `downloadUrl` stops working; the archive is deleted an hour later. */
  expiresAt: string;
  /** Files in the archive. */
  assetCount: number;
  /** Bytes of the zip file. */
  size: number;
  /** Assets deleted between the request and the archive, left out of it. */
  skippedAssetIds?: string[];
}

/**
 * The executor's side of the job protocol for archives: reports to
 * job-service on `job.reports.v1`, always through asset-service's outbox, so a
 * report exists exactly when the state change it describes committed.
 */
@Injectable()
export class DownloadReports {
  constructor(
    private readonly downloads: DownloadRepository,
    private readonly outbox: Outbox,
  ) {}

  /** Progress (0–1) while the archive is written; its own small transaction. */
  async progress(jobId: string, progress: number): Promise<void> {
    const event = this.outbox.event(JobProgressReported, {
      jobId,
      status: 'in-progress' as const,
      progress: Math.min(1, Math.max(0, progress)),
    });
    await this.downloads.transaction((tx) => this.outbox.write(tx, [event]));
  }

  /** In the transaction that marks the archive done. */
  succeeded(tx: Prisma.TransactionClient, jobId: string, output: DownloadOutput): Promise<void> {
    return this.outbox.write(tx, [this.outbox.event(JobSucceededReported, { jobId, output: { ...output } })]);
  }

  /** In the transaction that marks the archive failed. `reason` is shown to the client. */
  failed(tx: Prisma.TransactionClient, jobId: string, reason: string): Promise<void> {
    return this.outbox.write(tx, [
      this.outbox.event(JobFailedReported, { jobId, reason: reason.slice(0, 2000) }),
    ]);
  }
}
