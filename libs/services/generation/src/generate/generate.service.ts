import { Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Principal } from '@genasset/auth';
import type { CreativeUnitsPrice, JobView, TenantRef } from '@genasset/contracts';
import { ApiError, checkBody, type FieldError } from '@genasset/http';
import { GenerationPricing } from './cost/generation-pricing';
import { isDryRun, type GenerateQuery } from './dto/generate.query';
import { imageInputsOf } from './inputs/image-inputs';
import { InputResolver, type ResolvedInputs } from './inputs/input-resolver';
import { JobLauncher } from './job-launcher';
import { modelRunBy, type ModeDefinition } from './modes/mode-definition';
import { ProjectScopes } from './project-scope';
import { conditioningModelRefs, ModelRuns } from '../models/model-runs';
import { PresetsService } from '../models/presets/presets.service';
import { modeResponse, RESULT_KINDS } from './responses/mode-responses';
import { pendingAsset, reserveAssetId } from './responses/pending-asset';
import { ResultWait } from './responses/result-wait';

const NOTHING: ReadonlySet<string> = new Set();

/** Status of a successful dry run (spec: Generation). */
export const DRY_RUN_STATUS = 269;

/** A JSON copy of a validated body: only the fields that were given. */
export function plain(body: object): Record<string, unknown> {
  return JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
}

/** Whether a field of a one-of group was given: null, and an empty list (it names no image), give nothing. */
export function isGiven(value: unknown): boolean {
  return value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0);
}

/** Field groups of which one is required, and cross-field rules: 400 naming the field. */
export function checkRules(mode: ModeDefinition, body: Record<string, unknown>): void {
  const errors: FieldError[] = [];
  for (const group of mode.oneOf ?? []) {
    if (!group.some((field) => isGiven(body[field]))) {
      const names = group.length === 2 ? `${group[0]} or ${group[1]}` : `one of ${group.join(', ')}`;
      errors.push({ field: group[0], messages: [`${names} is required`] });
    }
  }
  errors.push(...(mode.rules?.(body) ?? []));
  if (errors.length > 0) throw ApiError.validation(errors);
}

/**
 * One generate request, whatever the mode: the project, the body's rules, the
 * image inputs (assets of the project, data URLs decoded), the price; then a
 * dry run answers 269 with the price having created nothing, and a real run
 * launches the job and answers with the mode's response.
 */
@Injectable()
export class GenerateService {
  constructor(
    private readonly scopes: ProjectScopes,
    private readonly inputs: InputResolver,
    private readonly pricing: GenerationPricing,
    private readonly launcher: JobLauncher,
    private readonly results: ResultWait,
    private readonly models: ModelRuns,
    private readonly presets: PresetsService,
  ) {}

  async generate(
    mode: ModeDefinition,
    principal: Principal,
    query: GenerateQuery,
    dto: object,
    reply: FastifyReply,
  ): Promise<Record<string, unknown> | CreativeUnitsPrice> {
    const tenant = await this.scopes.resolve(principal, query.projectId);
    const prepared = await this.prepare(mode, tenant, mode.presets ? await this.bodyOf(mode, tenant, dto) : dto);
    if (isDryRun(query.dryRun)) {
      void reply.status(DRY_RUN_STATUS);
      return prepared.price;
    }
    const { job, input, outputAssetId } = await this.start(prepared);
    const current = RESULT_KINDS.has(mode.response) ? await this.results.until(tenant, job) : job;
    const asset =
      mode.output && outputAssetId ? pendingAsset(mode.output, outputAssetId, prepared.body, tenant, job) : undefined;
    return modeResponse(mode, current, prepared.price, input, asset);
  }

  /**
   * A body as the mode's route checks it: the preset it names (`presetId`, modes taking presets)
   * applied first, its parameters filling what the body does not give (PresetsService.apply, as
   * the custom route does), then the whole checked against the mode's body class by the apps'
   * validation pipe. A workflow step's body goes through here too.
   */
  async bodyOf(mode: ModeDefinition, tenant: TenantRef, raw: unknown): Promise<object> {
    const given = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : undefined;
    const withPreset =
      mode.presets && given?.presetId !== undefined && typeof given.modelId === 'string'
        ? await this.presets.apply(tenant, given.modelId, given)
        : raw;
    return checkBody(mode.body as new () => object, withPreset);
  }

  /**
   * Everything before the job: the body's rules, the models it names (ones the caller may use),
   * the image inputs (assets of the project, data URLs decoded) and the price. `dto` is a
   * validated instance of `mode.body`. A workflow step goes through here too; before its run,
   * `unresolved` holds the stand-ins for assets earlier steps have not made yet (left out of the
   * asset lookup, priced at the default size).
   */
  async prepare(
    mode: ModeDefinition,
    tenant: TenantRef,
    dto: object,
    unresolved: ReadonlySet<string> = NOTHING,
  ): Promise<PreparedGeneration> {
    const body = plain(dto);
    checkRules(mode, body);
    // A registry model (model_…) must be one the caller may use; its learned files go to the worker with the job.
    const learnedModel = mode.runsModel
      ? await this.models.forMode(tenant, body.modelId, mode.name)
      : undefined;
    // So must every other model id of the request (concepts, conditioning models): none of another team's private models.
    await this.models.conditioning(tenant, conditioningModelRefs(body, mode.runsModel === true));
    const inputs = await this.inputs.resolve(tenant, imageInputsOf(dto).filter((i) => !unresolved.has(i.value)));
    const price = this.pricing.price(mode.name, body, inputs.sizes);
    return { mode, tenant, body, inputs, price, ...(learnedModel ? { learnedModel } : {}) };
  }

  /**
   * Launches the prepared generation's job. `options.creativeUnitsCost` overrides the price's
   * charge (a workflow step: the run was charged for it), `options.idempotencyKey` makes a
   * repeated start return the first job.
   */
  async start(
    prepared: PreparedGeneration,
    options: { creativeUnitsCost?: number; idempotencyKey?: string; extra?: Record<string, unknown> } = {},
  ): Promise<{ job: JobView; input: Record<string, unknown>; outputAssetId?: string }> {
    const { mode, tenant, body, inputs, price, learnedModel } = prepared;
    const outputAssetId = mode.output ? reserveAssetId() : undefined;
    const { job, input } = await this.launcher.launch({
      tenant,
      generationMode: mode.name,
      body,
      inputs,
      price: options.creativeUnitsCost === undefined ? price : { ...price, creativeUnitsCost: options.creativeUnitsCost },
      modelId: modelRunBy(mode, body),
      ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}),
      extra: {
        ...(outputAssetId ? { outputAssetId } : {}),
        ...(learnedModel ? { learnedModel } : {}),
        ...options.extra,
      },
    });
    return { job, input, ...(outputAssetId ? { outputAssetId } : {}) };
  }
}

/** A generate request checked, resolved and priced: what `start` launches. */
export interface PreparedGeneration {
  mode: ModeDefinition;
  tenant: TenantRef;
  body: Record<string, unknown>;
  inputs: ResolvedInputs;
  price: CreativeUnitsPrice;
  learnedModel?: Record<string, unknown>;
}
