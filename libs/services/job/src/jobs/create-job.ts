import { Inject, Injectable } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import {
  InternalApiError,
  JobCreated,
  JobWorkRequested,
  prefixedId,
  unstorableMessage,
  unstorablePath,
  type CreateJobCommand,
} from '@genasset/contracts';
import { flattenValidationErrors } from '@genasset/http';
import { Outbox } from '@genasset/messaging';
import { CREDIT_LEDGER, type CreditLedger } from '../credits/credit-ledger';
import { CreateJobDto } from '../internal/dto/create-job.dto';
import { lifecycleData } from './job-facts';
import { isIdempotencyConflict, JobRepository, type JobRecord } from './job.repository';

/**
 * Creates a job in one transaction: the row (status `queued`, one history
 * entry), the charge, and the facts `job.created` (→ webhooks) and
 * `job.work.requested` (→ executors). Nothing of it exists unless all of it
 * commits. A known idempotency key returns the first job, charged once.
 */
@Injectable()
export class CreateJob {
  constructor(
    private readonly jobs: JobRepository,
    private readonly outbox: Outbox,
    @Inject(CREDIT_LEDGER) private readonly ledger: CreditLedger,
  ) {}

  async execute(input: CreateJobCommand): Promise<JobRecord> {
    const command = validated(input);
    const { tenant, idempotencyKey } = command;
    if (idempotencyKey) {
      const existing = await this.jobs.findByIdempotencyKey(tenant.projectId, idempotencyKey);
      if (existing) return sameRequest(existing, command);
    }
    try {
      return await this.jobs.transaction(async (tx) => {
        const job = await this.jobs.insert(tx, {
          id: prefixedId('job'),
          jobType: command.jobType,
          kind: command.kind,
          status: 'queued',
          teamId: tenant.teamId,
          projectId: tenant.projectId,
          authorId: tenant.authorId,
          modelId: command.modelId,
          input: command.input,
          creativeUnitsCost: command.creativeUnitsCost,
          idempotencyKey,
          hideResults: command.input.hideResults === true,
          at: new Date(),
        });
        await this.ledger.charge(tx, {
          jobId: job.id,
          teamId: job.teamId,
          projectId: job.projectId,
          units: job.creativeUnitsCost,
        });
        await this.outbox.write(tx, [
          this.outbox.event(JobCreated, lifecycleData(job)),
          this.outbox.event(JobWorkRequested, {
            jobId: job.id,
            jobType: command.jobType,
            kind: command.kind,
            tenant: {
              teamId: tenant.teamId,
              projectId: tenant.projectId,
              ...(tenant.authorId ? { authorId: tenant.authorId } : {}),
            },
            input: command.input,
            ...(command.modelId ? { modelId: command.modelId } : {}),
          }),
        ]);
        return job;
      });
    } catch (error) {
      // Two creates with one key raced: the other committed first; answer with its job.
      if (!idempotencyKey || !isIdempotencyConflict(error)) throw error;
      const winner = await this.jobs.findByIdempotencyKey(tenant.projectId, idempotencyKey);
      if (!winner) throw error;
      return sameRequest(winner, command);
    }
  }
}

/** The same checks in-process as over HTTP, so both modes refuse the same commands. */
function validated(input: CreateJobCommand): CreateJobDto {
  const dto = plainToInstance(CreateJobDto, input);
  const errors = validateSync(dto, { whitelist: true, forbidNonWhitelisted: true });
  const fields = errors.length ? flattenValidationErrors(errors) : unstorable(dto);
  if (fields.length === 0) return dto;
  throw new InternalApiError(400, 'validation_error', fields.flatMap((f) => f.messages).join('; '), {
    fields: Object.fromEntries(fields.map((f) => [f.field, f.messages])),
  });
}

/**
 * Strings PostgreSQL refuses (NUL in text and jsonb, an unpaired surrogate in jsonb): the caller's
 * 400 naming the field, where the insert failed with a 500.
 */
function unstorable(command: CreateJobDto): { field: string; messages: string[] }[] {
  const { tenant, input, modelId, idempotencyKey } = command;
  const field = unstorablePath({
    tenant: { teamId: tenant.teamId, projectId: tenant.projectId, authorId: tenant.authorId },
    input,
    modelId,
    idempotencyKey,
  });
  return field === undefined ? [] : [{ field, messages: [unstorableMessage(field)] }];
}

/** A key reused for a different job is a caller bug: say so rather than return an unrelated job. */
function sameRequest(existing: JobRecord, command: CreateJobCommand): JobRecord {
  if (existing.jobType !== command.jobType || existing.kind !== command.kind) {
    throw new InternalApiError(
      409,
      'idempotency_key_reused',
      `idempotencyKey ${command.idempotencyKey} was already used for a ${existing.jobType} job (${existing.id})`,
      { jobId: existing.id },
    );
  }
  return existing;
}
