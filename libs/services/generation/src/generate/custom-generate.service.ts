import { Injectable } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import type { Principal } from '@genasset/auth';
import type { CreativeUnitsPrice, JobView, TenantRef } from '@genasset/contracts';
import { ApiError, flattenValidationErrors } from '@genasset/http';
import { GenerationPricing } from './cost/generation-pricing';
import { CustomGenerateBody } from './dto/custom.dto';
import { FOREIGN_ID } from './dto/fields';
import { isDryRun, type GenerateQuery } from './dto/generate.query';
import { customInputsOf } from './inputs/image-inputs';
import { InputResolver, type ResolvedInputs } from './inputs/input-resolver';
import { JobLauncher } from './job-launcher';
import { GENERATE_LIMITS } from './limits';
import { ProjectScopes } from './project-scope';
import { ModelRuns } from '../models/model-runs';
import { PresetsService } from '../models/presets/presets.service';

const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
/** Job input fields this service sets for the executor. */
const RESERVED = new Set(['generationMode', 'outputAssetId', 'learnedModel']);

/** The generic checks of a custom-model body (the model-driven ones come with the models registry). */
export function checkCustomBody(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw ApiError.validation([
      { field: '(body)', messages: ['the body must be a JSON object of the model’s inputs'] },
    ]);
  }
  const record = body as Record<string, unknown>;
  const names = Object.keys(record);
  if (names.length > GENERATE_LIMITS.customFields) {
    throw ApiError.validation([
      {
        field: '(body)',
        messages: [
          `the body has ${names.length} fields; at most ${GENERATE_LIMITS.customFields} are accepted`,
        ],
      },
    ]);
  }
  const badName = names.find((name) => !FIELD_NAME.test(name) || RESERVED.has(name));
  if (badName !== undefined)
    throw ApiError.validation([{ field: badName, messages: [`${badName} is not an accepted input name`] }]);
  const errors = validateSync(plainToInstance(CustomGenerateBody, record), {
    whitelist: false,
    forbidUnknownValues: false,
  });
  if (errors.length > 0) throw ApiError.validation(flattenValidationErrors(errors));
  return record;
}

/**
 * `POST /v1/generate/custom/{modelId}`: generation with any model. The body is
 * the model's inputs; the route, the generic checks, the input resolution, the
 * price and the job are here; the model's own input schema is checked later
 * (models registry). The spec lists only 200 for this route, so a dry run
 * answers 200 with the cost.
 */
@Injectable()
export class CustomGenerateService {
  constructor(
    private readonly scopes: ProjectScopes,
    private readonly inputs: InputResolver,
    private readonly pricing: GenerationPricing,
    private readonly launcher: JobLauncher,
    private readonly models: ModelRuns,
    private readonly presets: PresetsService,
  ) {}

  async generate(
    modelId: string,
    principal: Principal,
    query: GenerateQuery,
    raw: unknown,
  ): Promise<Record<string, unknown> | CreativeUnitsPrice> {
    if (!FOREIGN_ID.test(modelId))
      throw ApiError.validation([{ field: 'modelId', messages: ['modelId is not a valid id'] }]);
    const tenant = await this.scopes.resolve(principal, query.projectId);
    const prepared = await this.prepare(tenant, modelId, raw);
    if (isDryRun(query.dryRun)) return prepared.price;
    const { job } = await this.start(prepared);
    return { job, ...prepared.price };
  }

  /** Everything before the job (a workflow's custom-model step goes through here too). */
  async prepare(
    tenant: TenantRef,
    modelId: string,
    raw: unknown,
    unresolved: ReadonlySet<string> = new Set(),
  ): Promise<PreparedCustomGeneration> {
    // A named preset fills what the body leaves out (docs/models.md: Presets).
    const body = await this.presets.apply(tenant, modelId, checkCustomBody(raw));
    // The model decides the rest: its declared inputs (types, rules, ranges, files as asset ids).
    const run = await this.models.forCustom(tenant, modelId, body);
    const inputs = await this.inputs.resolve(tenant, customInputsOf(body).filter((i) => !unresolved.has(i.value)));
    const price = this.pricing.price('custom', body, inputs.sizes);
    return { tenant, modelId, body, inputs, price, ...(run.learnedModel ? { learnedModel: run.learnedModel } : {}) };
  }

  /** Launches the prepared job; options as GenerateService.start's. */
  async start(
    prepared: PreparedCustomGeneration,
    options: { creativeUnitsCost?: number; idempotencyKey?: string; extra?: Record<string, unknown> } = {},
  ): Promise<{ job: JobView }> {
    const { tenant, modelId, body, inputs, price, learnedModel } = prepared;
    const { job } = await this.launcher.launch({
      tenant,
      generationMode: 'custom',
      body: { ...body },
      inputs,
      price: options.creativeUnitsCost === undefined ? price : { ...price, creativeUnitsCost: options.creativeUnitsCost },
      modelId,
      ...(options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {}),
      extra: { ...(learnedModel ? { learnedModel } : {}), ...options.extra },
    });
    return { job };
  }
}

export interface PreparedCustomGeneration {
  tenant: TenantRef;
  modelId: string;
  body: Record<string, unknown>;
  inputs: ResolvedInputs;
  price: CreativeUnitsPrice;
  learnedModel?: Record<string, unknown>;
}
