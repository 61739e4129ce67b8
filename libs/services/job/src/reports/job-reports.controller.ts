import { Controller, Logger } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import {
  JobFailedReported,
  JobProgressReported,
  JobSucceededReported,
  TOPICS,
  type EventEnvelope,
  type JobFailedReportData,
  type JobProgressReportData,
  type JobSucceededReportData,
} from '@genasset/contracts';
import { EventContext, OnEvent } from '@genasset/messaging';
import { JobTransitions, type JobOccurrence } from '../jobs/job-transitions';
import type { JobTx } from '../jobs/job.repository';
import { JOB_SERVICE } from '../job.schema';

const on = (type: string) => OnEvent(TOPICS.jobReports, { consumer: JOB_SERVICE, types: [type] });

/**
 * Executors' reports (`job.reports.v1`, validated by the transport) drive the
 * state machine. Reports may arrive late or twice: one the machine refuses is
 * logged and skipped — never thrown, so a legitimate late report is neither
 * retried nor dead-lettered. Everything is written through `ctx.tx`, which
 * also records the inbox mark: a redelivered report changes nothing.
 */
@Controller()
export class JobReportsController {
  private readonly logger = new Logger('JobReports');

  constructor(private readonly transitions: JobTransitions) {}

  @on(JobProgressReported.type)
  async progress(
    @Payload() envelope: EventEnvelope<JobProgressReportData>,
    @Ctx() ctx: EventContext<JobTx>,
  ): Promise<void> {
    const { status, progress, consumedUnits, flow } = envelope.data;
    await this.apply(envelope, ctx, {
      type: 'progress',
      status,
      progress,
      ...(consumedUnits !== undefined ? { consumedUnits } : {}),
      ...(flow ? { flow } : {}),
    });
  }

  @on(JobSucceededReported.type)
  async succeeded(
    @Payload() envelope: EventEnvelope<JobSucceededReportData>,
    @Ctx() ctx: EventContext<JobTx>,
  ): Promise<void> {
    await this.apply(envelope, ctx, { type: 'succeed', output: { ...envelope.data.output } });
  }

  @on(JobFailedReported.type)
  async failed(
    @Payload() envelope: EventEnvelope<JobFailedReportData>,
    @Ctx() ctx: EventContext<JobTx>,
  ): Promise<void> {
    const { reason, refundUnits } = envelope.data;
    await this.apply(envelope, ctx, { type: 'fail', reason, ...(refundUnits !== undefined ? { refundUnits } : {}) });
  }

  private async apply(
    envelope: EventEnvelope<{ jobId: string }>,
    ctx: EventContext<JobTx>,
    occurrence: JobOccurrence,
  ): Promise<void> {
    const { jobId } = envelope.data;
    const outcome = await this.transitions.apply(ctx.tx, jobId, occurrence);
    const what = `${envelope.type} ${envelope.id} from ${envelope.producer} for ${jobId}`;
    switch (outcome.kind) {
      case 'missing':
        this.logger.warn(`${what} ignored: no such job`);
        return;
      case 'refused':
        // After a cancel the executor may not have stopped yet: expected, not worth a warning.
        if (outcome.job.status === 'canceled') this.logger.log(`${what} ignored: the job was canceled`);
        else this.logger.warn(`${what} ignored: ${outcome.reason}`);
        return;
      case 'unchanged':
        this.logger.debug(
          `${what}: nothing new (status ${outcome.job.status}, progress ${outcome.job.progress})`,
        );
        return;
      case 'applied':
        if (outcome.from !== outcome.job.status)
          this.logger.log(`job ${jobId}: ${outcome.from} → ${outcome.job.status}`);
    }
  }
}
