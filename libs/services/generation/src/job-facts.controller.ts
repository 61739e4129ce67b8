import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import {
  JobCanceled,
  JobFailed,
  JobStarted,
  JobSucceeded,
  TOPICS,
  type EventEnvelope,
  type JobLifecycleData,
} from '@genasset/contracts';
import { EventContext, OnEvent } from '@genasset/messaging';
import type { Prisma } from './generated/prisma/client';
import { GENERATION_SERVICE } from './generation.schema';
import { TrainingFactsController } from './models/training-facts.controller';
import { isStepFact, StepFacts } from './workflows/run/step-facts';

const isTraining = (envelope: EventEnvelope<JobLifecycleData>) =>
  envelope.data.kind === 'model-training' && Boolean(envelope.data.modelId);

/**
 * generation-service's one consumer of job lifecycle facts (one handler per type and consumer):
 * a training's facts move its model (TrainingFactsController), a workflow step's move its run
 * (StepFacts). Every other generation job's facts are skipped before any transaction.
 */
@Controller()
export class JobFactsController {
  constructor(
    private readonly training: TrainingFactsController,
    private readonly steps: StepFacts,
  ) {}

  @OnEvent(TOPICS.jobLifecycle, {
    consumer: GENERATION_SERVICE,
    types: [JobStarted.type, JobSucceeded.type, JobFailed.type, JobCanceled.type],
    when: (envelope: EventEnvelope<JobLifecycleData>) => isTraining(envelope) || isStepFact(envelope),
  })
  async fact(
    @Payload() envelope: EventEnvelope<JobLifecycleData>,
    @Ctx() ctx: EventContext<Prisma.TransactionClient>,
  ): Promise<void> {
    if (isTraining(envelope)) await this.training.fact(envelope, ctx);
    else if (isStepFact(envelope)) await this.steps.ended(envelope, ctx);
  }
}
