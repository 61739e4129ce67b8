import { Injectable } from '@nestjs/common';
import {
  JobFailedReported,
  JobOutputsProduced,
  JobProgressReported,
  JobSucceededReported,
  type EventEnvelope,
  type JobRunningStatus,
  type JobType,
} from '@genasset/contracts';
import { InjectOutbox, Outbox, type SqlClient } from '@genasset/messaging';
import type { StoredOutput } from '../engines/engine';
import { INFERENCE_SCHEMA } from '../inference.schema';
import type { ClaimedItem } from './work-queue';

/** job-service shows at most this many characters of a failure reason. */
const MAX_REASON = 2000;

/**
 * The facts the worker reports about a job, written to the inference outbox
 * in the caller's transaction (with the work item's change that caused them):
 * progress, failure, success without files, or the files produced — for which
 * asset-service creates the assets and then reports success.
 */
@Injectable()
export class JobReporter {
  constructor(@InjectOutbox(INFERENCE_SCHEMA.schema) private readonly outbox: Outbox) {}

  progress(tx: SqlClient, jobId: string, status: JobRunningStatus, progress: number): Promise<void> {
    return this.write(tx, this.progressEvents(jobId, status, progress));
  }

  progressEvents(jobId: string, status: JobRunningStatus, progress: number): EventEnvelope[] {
    return [this.outbox.event(JobProgressReported, { jobId, status, progress: round(progress) })];
  }

  failed(tx: SqlClient, jobId: string, reason: string): Promise<void> {
    return this.write(tx, this.failedEvents(jobId, reason));
  }

  failedEvents(jobId: string, reason: string): EventEnvelope[] {
    const text = reason.trim() || 'the job failed';
    return [
      this.outbox.event(JobFailedReported, {
        jobId,
        reason: text.length > MAX_REASON ? `${text.slice(0, MAX_REASON - 1)}…` : text,
      }),
    ];
  }

  /**
   * Writes `events` only if `guard` (the work item's change that causes them,
   * one statement with RETURNING) changed a row, in one statement: the same
   * all-or-nothing as a transaction around both, in one round trip instead
   * of four. Returns whether the guard held (the claim was still ours).
   */
  reportIf(client: SqlClient, guard: { sql: string; params: unknown[] }, events: EventEnvelope[]): Promise<boolean> {
    return this.outbox.writeIf(client, guard, events);
  }

  /**
   * The engine finished: with files, asset-service is asked to create the
   * assets (it reports success once they exist); without files (captions,
   * embeddings) success is reported directly.
   */
  finished(
    tx: SqlClient,
    item: ClaimedItem,
    outputs: readonly StoredOutput[],
    extra: Record<string, unknown>,
  ): Promise<void> {
    return this.write(tx, this.finishedEvents(item, outputs, extra));
  }

  finishedEvents(item: ClaimedItem, outputs: readonly StoredOutput[], extra: Record<string, unknown>): EventEnvelope[] {
    const finalizing = this.outbox.event(JobProgressReported, {
      jobId: item.jobId,
      status: 'finalizing' as const,
      progress: 0.95,
    });
    if (outputs.length === 0) {
      return [this.outbox.event(JobSucceededReported, { jobId: item.jobId, output: { ...extra } })];
    }
    const produced = this.outbox.event(JobOutputsProduced, {
      jobId: item.jobId,
      jobType: item.jobType as JobType,
      tenant: {
        teamId: item.teamId,
        projectId: item.projectId,
        ...(item.authorId ? { authorId: item.authorId } : {}),
      },
      ...(item.modelId ? { modelId: item.modelId } : {}),
      outputs: outputs.map((o) => ({
        key: o.key,
        mimeType: o.mimeType,
        assetType: o.assetType,
        ...(o.index === 0 && typeof item.input.outputAssetId === 'string'
          ? { assetId: item.input.outputAssetId }
          : {}),
        ...(o.parentAssetId ? { parentAssetId: o.parentAssetId } : {}),
        ...(o.name ? { name: o.name } : {}),
        metadata: o.metadata,
      })),
      extra,
      attempt: item.attempts,
    });
    return [finalizing, produced];
  }

  private write(tx: SqlClient, events: EventEnvelope[]): Promise<void> {
    return this.outbox.write(tx, events);
  }
}

const round = (v: number) => Math.round(Math.min(1, Math.max(0, v)) * 1000) / 1000;
