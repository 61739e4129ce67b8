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
import { generationParameters } from './generation-parameters';
import { INFERENCE_SCHEMA } from '../inference.schema';
import type { ClaimedItem } from './work-queue.repository';

/** job-service shows at most this many characters of a failure reason. */
const MAX_REASON = 2000;

/**
 * The facts the worker reports about a job: progress, failure, success without
 * files, or the files produced — for which asset-service creates the assets
 * and then reports success. Written to the inference outbox in the caller's
 * transaction, or built (`*Events`) for WorkQueueRepository to write in one
 * statement with the work item's change that caused them.
 */
@Injectable()
export class JobReporter {
  constructor(@InjectOutbox(INFERENCE_SCHEMA.schema) private readonly outbox: Outbox) {}

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
   * The engine finished: with files, asset-service is asked to create the
   * assets (it reports success once they exist); without files (captions,
   * embeddings) success is reported directly.
   */
  finishedEvents(item: ClaimedItem, outputs: readonly StoredOutput[], extra: Record<string, unknown>): EventEnvelope[] {
    const finalizing = this.outbox.event(JobProgressReported, {
      jobId: item.jobId,
      status: 'finalizing' as const,
      progress: 0.95,
    });
    if (outputs.length === 0) {
      return [this.outbox.event(JobSucceededReported, { jobId: item.jobId, output: { ...extra } })];
    }
    // What the engine reports of an output (its actual size, the seed it used) wins over the request's.
    const requested = generationParameters(item.input);
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
        metadata: { ...requested, ...o.metadata },
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
