import { errorMessage } from '@genasset/contracts';
import { randomBytes } from 'node:crypto';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { IdentityService } from '@genasset/identity';
import { DATABASE_CONNECTION, TaskLoop, type ClaimedTask, type DatabaseConnection } from '@genasset/persistence';
import { OBJECT_STORE, type ObjectStore } from '@genasset/storage';
import { StoredObjects } from '../objects/stored-objects';
import { ArchiveFailure, ArchiveWriter } from './archive-writer';
import { DOWNLOAD_LIMITS, partSizeFor } from './download-limits';
import { DownloadReports } from './download-reports';
import { DownloadRepository, DOWNLOADS_CHANNEL, type ClaimedDownload } from './download.repository';
import { DOWNLOAD_SETTINGS, type DownloadSettings } from './downloads.settings';
import { entryNames } from './entry-names';

/** The claim was lost while building (the job was canceled, or the lease ran out): stop, report nothing. */
class ClaimLost extends Error {
  constructor(jobId: string) {
    super(`claim on ${jobId} lost`);
  }
}

/** The process is stopping: give the claim back so another replica builds the archive at once. */
class Stopping extends Error {}

export function archiveKey(projectId: string, jobId: string): string {
  return `downloads/${projectId}/${jobId}/assets-${randomBytes(6).toString('base64url')}.zip`;
}

/**
 * Builds the archives of batch download jobs. Each process runs a few at a
 * time, claimed from `asset_downloads` under a lease it renews while it
 * writes; the consumer that queued the work never waits on it. Outcomes are
 * reported to job-service through the outbox in the transaction that records
 * them: `job.report.succeeded` with the signed `downloadUrl`, or
 * `job.report.failed` with a reason the client can act on.
 */
@Injectable()
export class DownloadWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(DownloadWorker.name);
  private readonly workerId = `dl_${randomBytes(8).toString('hex')}`;
  private readonly loop: TaskLoop;

  constructor(
    @Inject(DATABASE_CONNECTION) db: DatabaseConnection,
    @Inject(DOWNLOAD_SETTINGS) private readonly settings: DownloadSettings,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    private readonly downloads: DownloadRepository,
    private readonly writer: ArchiveWriter,
    private readonly reports: DownloadReports,
    private readonly objects: StoredObjects,
    private readonly identity: IdentityService,
  ) {
    this.loop = new TaskLoop(
      {
        name: DownloadWorker.name,
        concurrency: settings.concurrency,
        pollIntervalMs: settings.pollIntervalMs,
        db,
        channel: DOWNLOADS_CHANNEL,
        backoff: { baseMs: 500, maxMs: 30_000 },
        maintenance: { everyMs: 3600_000, run: () => this.downloads.purge(DOWNLOAD_LIMITS.retentionMs) },
      },
      (room) => this.claim(room),
    );
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.loop.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.loop.stop();
  }

  private async claim(room: number): Promise<ClaimedTask[]> {
    const rows = await this.downloads.claim(this.workerId, this.settings.leaseMs, room);
    return rows.map((row) => (signal) => this.run(row, signal));
  }

  private async run(row: ClaimedDownload, stopping: AbortSignal): Promise<void> {
    // Work for a tenant this deployment does not know is not ours (another environment on a shared
    // broker): building nothing and reporting a failure would fail someone else's job. Checked here,
    // not in the consumer: embedded PGlite has one connection, held by the consumer's transaction.
    if ((await this.identity.teamOfProject(row.projectId)) !== row.teamId) {
      this.logger.warn(
        `ignoring archive work ${row.jobId}: project ${row.projectId} of team ${row.teamId} is unknown here`,
      );
      await this.downloads.transaction((tx) =>
        this.downloads.failed(tx, row.jobId, this.workerId, 'unknown tenant: not reported'),
      );
      return;
    }
    if (row.attempts > DOWNLOAD_LIMITS.maxAttempts) {
      // Its worker died every time (a crash, not an error we saw): give up rather than loop forever.
      await this.fail(
        row,
        `the archive could not be built after ${DOWNLOAD_LIMITS.maxAttempts} attempts; request the download again later`,
      );
      return;
    }
    const abort = new AbortController();
    const onStop = () => abort.abort(new Stopping());
    stopping.addEventListener('abort', onStop);
    if (stopping.aborted) onStop();
    const heartbeat = setInterval(
      () => {
        this.downloads.renew(row.jobId, this.workerId, this.settings.leaseMs).then(
          (ours) => {
            if (!ours) abort.abort(new ClaimLost(row.jobId));
          },
          (error: unknown) =>
            this.logger.warn(`renewing the claim on ${row.jobId} failed: ${errorMessage(error)}`),
        );
      },
      Math.max(1000, Math.floor(this.settings.leaseMs / 3)),
    );
    const key = archiveKey(row.projectId, row.jobId);
    const progress = new ProgressReporter((p) => this.reports.progress(row.jobId, p));
    let written = false;
    try {
      await this.build(row, key, abort.signal, progress, () => (written = true));
    } catch (error) {
      if (written) await this.objects.discard([key]);
      // Progress written after the outcome would reach job-service after it (and be refused there).
      await progress.flush();
      await this.settle(row, abort.signal.reason ?? error);
    } finally {
      clearInterval(heartbeat);
      stopping.removeEventListener('abort', onStop);
    }
  }

  private async build(
    row: ClaimedDownload,
    key: string,
    signal: AbortSignal,
    progress: ProgressReporter,
    started: () => void,
  ): Promise<void> {
    progress.report(0);
    const assets = await this.downloads.assets(row.projectId, row.assetIds);
    if (assets.length === 0)
      throw new ArchiveFailure(
        'none of the requested assets exists anymore: they were deleted after the download was requested',
      );
    const names = entryNames(assets, row.options);
    const ttlMs = this.settings.urlTtlSeconds * 1000;
    await this.downloads.scheduleDeletion(key, ttlMs + DOWNLOAD_LIMITS.deletionMarginMs);
    started();
    const total = assets.length;
    const result = await this.writer.write(
      key,
      assets.map((asset, i) => ({ asset, name: names[i] })),
      {
        signal,
        partSizeBytes: partSizeFor(assets.reduce((sum, a) => sum + a.size, 0)),
        stillExists: (assetId) => this.downloads.exists(row.projectId, assetId),
        onEntry: (done) => progress.report((0.95 * done) / total),
      },
    );
    const found = new Set(assets.map((a) => a.id));
    const skipped = [...new Set([...row.assetIds.filter((id) => !found.has(id)), ...result.skipped])];
    if (result.files === 0)
      throw new ArchiveFailure(
        'none of the requested assets exists anymore: they were deleted after the download was requested',
      );
    await progress.flush();
    if (signal.aborted) throw signal.reason;
    const expiresAt = new Date(Date.now() + ttlMs);
    const downloadUrl = await this.store.signedUrl(key, {
      expiresInSeconds: this.settings.urlTtlSeconds,
      downloadName: `assets-${row.jobId}.zip`,
    });
    const recorded = await this.downloads.transaction(async (tx) => {
      if (
        !(await this.downloads.succeeded(tx, row.jobId, this.workerId, {
          archiveKey: key,
          size: result.size,
          skipped,
        }))
      )
        return false;
      await this.reports.succeeded(tx, row.jobId, {
        downloadUrl,
        expiresAt: expiresAt.toISOString(),
        assetCount: result.files,
        size: result.size,
        ...(skipped.length ? { skippedAssetIds: skipped } : {}),
      });
      return true;
    });
    if (!recorded) throw new ClaimLost(row.jobId);
    this.logger.log(
      `archive of ${row.jobId}: ${result.files} files, ${result.size} bytes${skipped.length ? `, ${skipped.length} skipped` : ''}`,
    );
  }

  /** After a failed build: give back, retry later, or fail the job. */
  private async settle(row: ClaimedDownload, error: unknown): Promise<void> {
    try {
      if (error instanceof ClaimLost) {
        // Not an error of the archive: visible, because a lease too short for the load shows up here.
        this.logger.warn(`stopped building ${row.jobId}: ${error.message} (canceled, or its lease ran out)`);
        return;
      }
      if (error instanceof Stopping) {
        await this.downloads.release(row.jobId, this.workerId, 0);
        return;
      }
      if (error instanceof ArchiveFailure) {
        await this.fail(row, error.message);
        return;
      }
      this.logger.warn(
        `archive of ${row.jobId} failed (attempt ${row.attempts}/${DOWNLOAD_LIMITS.maxAttempts}): ${errorMessage(error)}`,
      );
      if (row.attempts < DOWNLOAD_LIMITS.maxAttempts) {
        const delays = this.settings.retryDelaysMs;
        const delayMs = Math.max(1, delays[Math.min(row.attempts - 1, delays.length - 1)] ?? 10_000);
        await this.downloads.release(row.jobId, this.workerId, delayMs, errorMessage(error).slice(0, 500));
        this.loop.wakeAt(Date.now() + delayMs);
        return;
      }
      await this.fail(
        row,
        `the archive could not be written: storage failed ${DOWNLOAD_LIMITS.maxAttempts} times; request the download again later`,
      );
    } catch (settleError) {
      // The lease runs out and another worker takes the row again.
      this.logger.error(`could not record the outcome of ${row.jobId}: ${errorMessage(settleError)}`);
    }
  }

  private async fail(row: ClaimedDownload, reason: string): Promise<void> {
    await this.downloads.transaction(async (tx) => {
      if (await this.downloads.failed(tx, row.jobId, this.workerId, reason))
        await this.reports.failed(tx, row.jobId, reason);
    });
  }
}

/**
 * Progress reports in order, at most one in flight, a new one only when the
 * value moved by 5 % (a 1000-file archive sends about 20, not 1000).
 */
class ProgressReporter {
  private chain: Promise<void> = Promise.resolve();
  private last = -1;

  constructor(private readonly send: (progress: number) => Promise<void>) {}

  report(progress: number): void {
    if (this.last >= 0 && progress - this.last < 0.05) return;
    this.last = progress;
    this.chain = this.chain.then(() => this.send(Math.round(progress * 1000) / 1000)).catch(() => undefined);
  }

  flush(): Promise<void> {
    return this.chain;
  }
}
