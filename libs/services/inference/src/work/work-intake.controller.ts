import { Controller, Logger } from '@nestjs/common';
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
import { EngineRegistry } from '../engines/engine-registry';
import { modeOf } from '../engines/modes';
import { INFERENCE_SERVICE } from '../inference.schema';
import { cancelBackendTask } from './backend-task';
import { JobReporter } from './job-reporter';
import { WorkQueueRepository, type InferenceTx } from './work-queue.repository';

/**
 * Downloads are asset-service's work, workflow runs generation-service's (it runs their steps as
 * jobs of their own): skipped here before any transaction.
 */
const isInferenceWork = (envelope: EventEnvelope<{ kind: string; jobType: string }>): boolean =>
  envelope.data.kind !== 'asset-download' && envelope.data.jobType !== 'workflow';

/**
 * `job.work.v1` for generation jobs. The handler only records the work (with
 * its inbox mark, in one short transaction); engines run in the worker loop,
 * never inside the consumer's transaction. Other kinds (training, exports)
 * belong to other executors and are left alone.
 */
@Controller()
export class WorkIntakeController {
  private readonly logger = new Logger('InferenceIntake');

  constructor(
    private readonly queue: WorkQueueRepository,
    private readonly reporter: JobReporter,
    private readonly registry: EngineRegistry,
  ) {}

  @OnEvent(TOPICS.jobWork, { consumer: INFERENCE_SERVICE, types: [JobWorkRequested.type], when: isInferenceWork })
  async requested(
    @Payload() envelope: EventEnvelope<JobWorkRequestedData>,
    @Ctx() ctx: EventContext<InferenceTx>,
  ): Promise<void> {
    const { jobId, jobType, kind, tenant, input, modelId } = envelope.data;
    if (!isInferenceWork(envelope)) return;
    // Trainings and model exports run here too; their route is their kind.
    const mode = kind === 'generation' ? modeOf(jobType, input) : kind;
    if (!mode) {
      // Nothing says which engine could run it: fail it now rather than leave it queued forever.
      await this.reporter.failed(
        ctx.tx,
        jobId,
        `job type ${jobType} names no generation mode this worker knows`,
      );
      return;
    }
    const queued = await this.queue.enqueue(ctx.tx, {
      jobId,
      jobType,
      mode,
      teamId: tenant.teamId,
      projectId: tenant.projectId,
      ...(tenant.authorId ? { authorId: tenant.authorId } : {}),
      ...(modelId ? { modelId } : {}),
      input,
    });
    if (queued) this.logger.debug(`job ${jobId}: ${mode} queued`);
  }

  @OnEvent(TOPICS.jobWork, { consumer: INFERENCE_SERVICE, types: [JobWorkCanceled.type], when: isInferenceWork })
  async canceled(
    @Payload() envelope: EventEnvelope<JobWorkCanceledData>,
    @Ctx() ctx: EventContext<InferenceTx>,
  ): Promise<void> {
    if (!isInferenceWork(envelope)) return;
    const { jobId } = envelope.data;
    const canceled = await this.queue.cancel(ctx.tx, jobId);
    if (!canceled) return;
    this.logger.log(`job ${jobId}: canceled`);
    const task = canceled.backendTask;
    const engine = task && this.registry.backend(task.backend);
    // The worker holding the job (if any: it may have died, or the job waits for a retry) cancels
    // its task too; a second cancel is harmless (a finished or unknown task is left alone). After
    // commit, never inside the consumer's transaction: a backend call must not hold it open.
    if (task && engine)
      ctx.onSettled((committed) => {
        if (committed) void cancelBackendTask(engine, jobId, task);
      });
  }
}
