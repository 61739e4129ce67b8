import { Injectable } from '@nestjs/common';
import type { CreativeUnitsPrice, JobView, TenantRef } from '@genasset/contracts';
import { ApiError } from '@genasset/http';
import { isDryRun } from '../../generate/dto/generate.query';
import type { ImageInput } from '../../generate/inputs/image-inputs';
import { InputResolver } from '../../generate/inputs/input-resolver';
import { JobLauncher } from '../../generate/job-launcher';
import { dependencyOrder } from '../workflow-graph';
import { WorkflowRepository } from '../workflow.repository';
import type { WorkflowInput, WorkflowStep, WorkflowView } from '../workflow.dto';
import { workflowView } from '../workflows.service';
import { checkRunInputs, stepBody, type RunWorkflowBody } from './run-inputs';
import { WorkflowSteps } from './workflow-steps';

/** Stands in, before the run, for an asset a step has not made yet (the format of an asset id). */
export const NOT_YET_MADE = 'asset_0workflowstepoutput';

/** What a run's job carries for its runner (shown as the job's metadata.input). */
export interface RunPlan {
  generationMode: 'workflow';
  workflowId: string;
  inputs: Record<string, unknown>;
  /** The steps in dependency order, as defined when the run started, with what each was charged. */
  steps: { id: string; units: number; step: WorkflowStep }[];
}

export type RunAnswer =
  | { dryRun: true; price: CreativeUnitsPrice }
  | { dryRun: false; body: { workflow: WorkflowView; job: JobView } & CreativeUnitsPrice };

/**
 * `PUT /v1/workflows/{workflowId}/run` (docs/workflows.md: Running): checks the run's inputs
 * against the workflow's declared ones and each step's body as its generate route would,
 * prices every step (the sum is the run's price; a dry run answers it having created nothing),
 * then asks job-service for ONE `workflow` job charged the whole sum. The runner
 * (WorkflowRunner) executes it: nothing else is written here.
 */
@Injectable()
export class RunWorkflow {
  constructor(
    private readonly workflows: WorkflowRepository,
    private readonly inputs: InputResolver,
    private readonly steps: WorkflowSteps,
    private readonly launcher: JobLauncher,
  ) {}

  async execute(tenant: TenantRef, workflowId: string, body: RunWorkflowBody, dryRun: string | undefined): Promise<RunAnswer> {
    const row = await this.workflows.find(tenant.projectId, workflowId);
    if (!row) throw ApiError.notFound(`workflow ${workflowId} not found`, workflowId);
    const declared = row.inputs as unknown as WorkflowInput[];
    const flow = row.flow as unknown as WorkflowStep[];
    if (flow.length === 0)
      throw ApiError.validation([{ field: 'workflowId', messages: [`workflow ${workflowId} has no step to run (draft)`] }]);
    const values = checkRunInputs(declared, body.inputs);
    await this.checkFiles(tenant, declared, values);

    const planned: RunPlan['steps'] = [];
    const price: CreativeUnitsPrice = { creativeUnitsCost: 0, creativeUnitsDiscount: 0 };
    for (const step of dependencyOrder(flow)) {
      const at = `flow[${flow.indexOf(step)}]`;
      const prepared = await this.steps.prepare(tenant, step, at, stepBody(step, values, () => undefined, NOT_YET_MADE), new Set([NOT_YET_MADE]));
      planned.push({ id: step.id, units: prepared.prepared.price.creativeUnitsCost, step });
      price.creativeUnitsCost += prepared.prepared.price.creativeUnitsCost;
      price.creativeUnitsDiscount += prepared.prepared.price.creativeUnitsDiscount;
    }
    if (isDryRun(dryRun)) return { dryRun: true, price };

    const plan: RunPlan = { generationMode: 'workflow', workflowId, inputs: values, steps: planned };
    const { job } = await this.launcher.launch({
      tenant,
      generationMode: 'workflow',
      body: { ...plan },
      inputs: { inputs: [], decoded: [], sizes: [] },
      price,
    });
    return { dryRun: false, body: { workflow: workflowView(row), job, ...price } };
  }

  /** File inputs name assets of the project: 404 naming `inputs.<name>` for another's or a missing one. */
  private async checkFiles(tenant: TenantRef, declared: readonly WorkflowInput[], values: Record<string, unknown>): Promise<void> {
    const files: ImageInput[] = declared.flatMap((input) => {
      const value = values[input.name];
      const ids = typeof value === 'string' ? [value] : Array.isArray(value) ? (value as string[]) : [];
      if (input.type !== 'file' && input.type !== 'file_array') return [];
      return ids.map((id, i) => ({
        path: input.type === 'file' ? `inputs.${input.name}` : `inputs.${input.name}.${i}`,
        value: id,
        kind: 'asset' as const,
        accepts: 'asset-or-data-url' as const,
        anyMedia: input.kind !== undefined && input.kind !== 'image',
      }));
    });
    if (files.length > 0) await this.inputs.resolve(tenant, files);
  }
}
