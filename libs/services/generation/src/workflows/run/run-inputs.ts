import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsOptional } from 'class-validator';
import { ApiError, JobSchema, type FieldError } from '@genasset/http';
import { isAssetId } from '../../generate/dto/image-ref';
import { WORKFLOW_NODE } from '../workflow-graph';
import { WorkflowsQuery, WorkflowView, type WorkflowInput, type WorkflowStep } from '../workflow.dto';

/** Most items a list input takes, and the longest string input. */
export const RUN_LIMITS = { listItems: 20, stringLength: 10_000 } as const;

export class RunWorkflowQuery extends WorkflowsQuery {
  @ApiPropertyOptional({ description: 'Any value: answer 269 with the run’s price, start nothing' })
  @IsOptional()
  dryRun?: string;
}

/** `PUT /v1/workflows/{workflowId}/run`: a value for each declared input, by its name. */
export class RunWorkflowBody {
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'The workflow’s inputs by name: a file is an asset id of the project, a file_array a list of them',
    example: { image: 'asset_GTrL3mq4SXWyMxkOHRxlpw' },
  })
  @IsOptional()
  @IsObject({ message: 'inputs must be an object of the workflow’s inputs by name' })
  inputs?: Record<string, unknown>;
}

/** Upstream's PutWorkflowRunByWorkflowIdResponse (`workflow`), with the run's job and price. */
export class RunWorkflowResponse {
  @ApiProperty({ type: WorkflowView }) workflow!: WorkflowView;
  @ApiProperty({ type: JobSchema, description: 'The run’s job (jobType workflow): GET /v1/jobs/{jobId} follows it' }) job!: JobSchema;
  @ApiProperty({ description: 'Creative units charged for the whole run' }) creativeUnitsCost!: number;
  @ApiProperty({ description: 'Creative units discounted' }) creativeUnitsDiscount!: number;
}

export class RunWorkflowDryRunResponse {
  @ApiProperty({ description: 'Creative units the run would cost (every step)' }) creativeUnitsCost!: number;
  @ApiProperty({ description: 'Creative units discounted' }) creativeUnitsDiscount!: number;
}

const isList = (value: unknown, item: (v: unknown) => boolean) =>
  Array.isArray(value) && value.length > 0 && value.length <= RUN_LIMITS.listItems && value.every(item);
const isNumber = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
const isString = (v: unknown) => typeof v === 'string' && v.length <= RUN_LIMITS.stringLength;

const TYPE_CHECKS: Record<string, { ok: (v: unknown) => boolean; says: string }> = {
  boolean: { ok: (v) => typeof v === 'boolean', says: 'a boolean' },
  number: { ok: isNumber, says: 'a number' },
  string: { ok: isString, says: `a string of at most ${RUN_LIMITS.stringLength} characters` },
  file: { ok: isAssetId, says: 'an asset id (asset_…)' },
  model: { ok: isString, says: 'a model id' },
  number_array: { ok: (v) => isList(v, isNumber), says: `a list of 1 to ${RUN_LIMITS.listItems} numbers` },
  string_array: { ok: (v) => isList(v, isString), says: `a list of 1 to ${RUN_LIMITS.listItems} strings` },
  file_array: { ok: (v) => isList(v, isAssetId), says: `a list of 1 to ${RUN_LIMITS.listItems} asset ids` },
  model_array: { ok: (v) => isList(v, isString), says: `a list of 1 to ${RUN_LIMITS.listItems} model ids` },
};

/**
 * The run's values against the workflow's declared inputs: each given name declared, each
 * required one given, each value of its declared type. 400 naming `inputs.<name>` otherwise.
 */
export function checkRunInputs(declared: readonly WorkflowInput[], given: Record<string, unknown> = {}): Record<string, unknown> {
  const errors: FieldError[] = [];
  const names = new Set(declared.map((d) => d.name));
  for (const name of Object.keys(given))
    if (!names.has(name)) errors.push({ field: `inputs.${name}`, messages: [`the workflow declares no input ${name}`] });
  const values: Record<string, unknown> = {};
  for (const input of declared) {
    const value = given[input.name];
    if (value === undefined || value === null) {
      if (input.required?.always === true) errors.push({ field: `inputs.${input.name}`, messages: [`${input.name} is required`] });
      continue;
    }
    const check = TYPE_CHECKS[input.type];
    if (check && !check.ok(value)) {
      errors.push({ field: `inputs.${input.name}`, messages: [`${input.name} must be ${check.says}`] });
      continue;
    }
    values[input.name] = value;
  }
  if (errors.length > 0) throw ApiError.validation(errors);
  return values;
}

/**
 * A step's request body: its static values, the run's values it binds to, and the assets of the
 * steps it binds to (`file`: the first, `file_array`: all). `stepAssets` undefined for a step
 * not run yet: `placeholder` stands in (pricing and checks before the run). An unbound optional
 * workflow input leaves the field out.
 */
export function stepBody(
  step: WorkflowStep,
  values: Record<string, unknown>,
  stepAssets: (stepId: string) => readonly string[] | undefined,
  placeholder: string,
): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const input of step.inputs) {
    if (input.ref === undefined) body[input.name] = input.value;
    else if (input.ref.node === WORKFLOW_NODE) {
      const value = values[input.ref.name!];
      if (value !== undefined) body[input.name] = value;
    } else {
      const assets = stepAssets(input.ref.node) ?? [placeholder];
      body[input.name] = input.type === 'file_array' ? [...assets] : assets[0];
    }
  }
  return body;
}

/** Where an error about a step's body field lies for the caller: the run input it binds to, or the step's input. */
export function fieldOfStepError(step: WorkflowStep, at: string, field: string): string {
  const name = field.split('.')[0];
  const j = step.inputs.findIndex((i) => i.name === name);
  if (j < 0) return `${at}.inputs`;
  const ref = step.inputs[j].ref;
  return ref?.node === WORKFLOW_NODE ? `inputs.${ref.name}` : `${at}.inputs[${j}]`;
}
