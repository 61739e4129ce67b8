import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import {
  JobOutputsProduced,
  TOPICS,
  type EventEnvelope,
  type JobOutputsProducedData,
} from '@genasset/contracts';
import { EventContext, OnEvent } from '@genasset/messaging';
import { ASSET_SERVICE } from '../asset.schema';
import type { Prisma } from '../generated/prisma/client';
import { CreateJobOutputs } from './create-job-outputs';

/** asset-service's part of `job.reports.v1`: the files executors produced become assets. */
@Controller()
export class JobOutputsController {
  constructor(private readonly createOutputs: CreateJobOutputs) {}

  @OnEvent(TOPICS.jobReports, { consumer: ASSET_SERVICE, types: [JobOutputsProduced.type] })
  async produced(
    @Payload() envelope: EventEnvelope<JobOutputsProducedData>,
    @Ctx() ctx: EventContext<Prisma.TransactionClient>,
  ): Promise<void> {
    await this.createOutputs.execute(ctx.tx, envelope.data);
  }
}
