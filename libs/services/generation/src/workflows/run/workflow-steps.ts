import { Injectable } from '@nestjs/common';
import type { CreativeUnitsPrice, JobView, TenantRef } from '@genasset/contracts';
import { ApiError, type FieldError } from '@genasset/http';
import { CustomGenerateService, type PreparedCustomGeneration } from '../../generate/custom-generate.service';
import { GenerateService, type PreparedGeneration } from '../../generate/generate.service';
import { CUSTOM_MODEL_STEP, stepMode } from '../workflow-graph';
import type { WorkflowStep } from '../workflow.dto';
import { fieldOfStepError } from './run-inputs';

export type PreparedStep =
  | { kind: 'mode'; prepared: PreparedGeneration }
  | { kind: 'custom'; prepared: PreparedCustomGeneration };

/**
 * A workflow step is a generation: its body goes through the same checks, asset lookup and
 * pricing as `POST /v1/generate/{mode}` (or `/generate/custom/{modelId}`), and its job is
 * launched by the same path. Errors about the body are renamed to what the caller can fix:
 * the run input a field binds to (`inputs.image`), or the step's input (`flow[1].inputs[0]`).
 */
@Injectable()
export class WorkflowSteps {
  constructor(
    private readonly generate: GenerateService,
    private readonly custom: CustomGenerateService,
  ) {}

  async prepare(
    tenant: TenantRef,
    step: WorkflowStep,
    at: string,
    body: Record<string, unknown>,
    unresolved: ReadonlySet<string> = new Set(),
  ): Promise<PreparedStep> {
    return located(step, at, async (): Promise<PreparedStep> => {
      if (step.type === CUSTOM_MODEL_STEP)
        return { kind: 'custom', prepared: await this.custom.prepare(tenant, step.modelId!, body, unresolved) };
      const mode = stepMode(step.type);
      if (!mode) throw ApiError.validation([{ field: `${at}.type`, messages: [`${step.type} is not a step type`] }]);
      const dto = await this.generate.bodyOf(mode, tenant, body);
      return { kind: 'mode', prepared: await this.generate.prepare(mode, tenant, dto, unresolved) };
    });
  }

  /** Launches the step's job, uncharged (the run was charged for it), once per `idempotencyKey`. */
  async start(step: PreparedStep, idempotencyKey: string, runJobId: string): Promise<JobView> {
    const options = { creativeUnitsCost: 0, idempotencyKey, extra: { workflowJobId: runJobId } };
    return step.kind === 'custom'
      ? (await this.custom.start(step.prepared, options)).job
      : (await this.generate.start(step.prepared, options)).job;
  }
}

export const priceOf = (step: PreparedStep): CreativeUnitsPrice => step.prepared.price;

async function located<T>(step: WorkflowStep, at: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof ApiError) || error.getStatus() !== 400) throw error;
    const fields = (error.infos.fields ?? {}) as Record<string, string[]>;
    if (Object.keys(fields).length === 0) throw error;
    const renamed: FieldError[] = Object.entries(fields).map(([field, messages]) => ({
      field: field.startsWith(`${at}.`) ? field : fieldOfStepError(step, at, field),
      messages,
    }));
    throw ApiError.validation(renamed);
  }
}
