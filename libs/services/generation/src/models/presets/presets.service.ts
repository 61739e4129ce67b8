import { Inject, Injectable } from '@nestjs/common';
import { JOBS_API, type JobsApi, type TenantRef } from '@genasset/contracts';
import { ApiError } from '@genasset/http';
import { publicError } from '../../generate/internal-errors';
import { ModelAccess } from '../model-access';
import { MODEL_ID } from '../model-types';
import type { ModelRow } from '../model.view';
import { PresetRepository, type PresetRow } from './preset.repository';
import type { CreatePresetBody, ModelPresetView, UpdatePresetBody } from './preset.dto';

/** A model holds at most this many presets (a preset list is one page). */
export const MAX_PRESETS = 50;
/** Job input fields this service adds for the executor: not generation parameters. */
const EXECUTOR_FIELDS = new Set(['generationMode', 'outputAssetId', 'learnedModel', 'modelId']);
/** Upstream's inference types, the `type` a preset's parameters carry. */
export const PRESET_TYPES: readonly string[] = [
  'controlnet', 'controlnet_img2img', 'controlnet_inpaint', 'controlnet_inpaint_ip_adapter', 'controlnet_ip_adapter',
  'controlnet_reference', 'controlnet_texture', 'img2img', 'img2img_ip_adapter', 'img2img_texture', 'inpaint',
  'inpaint_ip_adapter', 'outpaint', 'reference', 'reference_texture', 'txt2img', 'txt2img_ip_adapter', 'txt2img_texture',
];
/** Where data-URL inputs are claim-checked: a key there is the job's, not a reusable parameter. */
const STORED_INPUT = 'generation-inputs/';

/**
 * Presets: the parameters of a generation job kept under a model (upstream
 * makes them from an `inferenceId`), listed with the model, and applied when
 * `POST /v1/generate/custom/{modelId}` names one with `presetId` (docs/models.md).
 */
@Injectable()
export class PresetsService {
  constructor(
    private readonly access: ModelAccess,
    private readonly presets: PresetRepository,
    @Inject(JOBS_API) private readonly jobs: JobsApi,
  ) {}

  async list(tenant: TenantRef, modelId: string): Promise<{ presets: ModelPresetView[] }> {
    const model = await this.access.readable(tenant, modelId);
    return { presets: (await this.presets.list(model.id)).map((p) => presetView(model, p)) };
  }

  async create(tenant: TenantRef, modelId: string, body: CreatePresetBody): Promise<{ preset: ModelPresetView }> {
    const model = await this.access.owned(tenant, modelId);
    const job = await this.jobs.getJob(tenant, body.inferenceId).catch((e: unknown) => Promise.reject(publicError(e)));
    if (!job) throw new ApiError(404, 'not_found', `Job ${body.inferenceId} not found`, { id: body.inferenceId, field: 'inferenceId' });
    const input = job.metadata.input;
    if (typeof input.generationMode !== 'string')
      throw ApiError.validation([{ field: 'inferenceId', messages: [`job ${body.inferenceId} is not a generation (${job.jobType})`] }]);
    if (typeof input.modelId === 'string' && input.modelId !== model.id)
      throw ApiError.validation([{ field: 'inferenceId', messages: [`job ${body.inferenceId} did not run model ${model.id}`] }]);
    if ((await this.presets.count(model.id)) >= MAX_PRESETS)
      throw ApiError.validation([{ field: 'inferenceId', messages: [`a model holds at most ${MAX_PRESETS} presets`] }]);
    const row = await this.presets.create(model.id, tenant.authorId ?? null, presetParameters(input), body.isDefault ?? false);
    return { preset: presetView(model, row) };
  }

  async update(tenant: TenantRef, modelId: string, presetId: string, body: UpdatePresetBody): Promise<{ preset: ModelPresetView }> {
    const model = await this.access.owned(tenant, modelId);
    const row = await this.presets.find(model.id, presetId);
    if (!row) throw ApiError.notFound(`preset ${presetId} not found`, presetId);
    return { preset: presetView(model, await this.presets.setDefault(row, body.isDefault)) };
  }

  async delete(tenant: TenantRef, modelId: string, presetId: string): Promise<Record<string, never>> {
    const model = await this.access.owned(tenant, modelId);
    if (!(await this.presets.delete(model.id, presetId))) throw ApiError.notFound(`preset ${presetId} not found`, presetId);
    return {};
  }

  /**
   * The body of a generation (the custom route, and the modes taking presets) with its preset applied: the preset's
   * parameters fill what the body does not give (the body wins), `type` left
   * out (the route decides what runs). 400 naming `presetId` when the model
   * has no such preset.
   */
  async apply(tenant: TenantRef, modelId: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const { presetId, ...rest } = body;
    if (presetId === undefined) return body;
    if (typeof presetId !== 'string' || presetId.length === 0)
      throw ApiError.validation([{ field: 'presetId', messages: ['presetId must be a preset id'] }]);
    // Presets live with registry models (a base model such as flux.1-dev has none) the caller may
    // use (404 as for the model otherwise).
    if (!MODEL_ID.test(modelId))
      throw ApiError.validation([{ field: 'presetId', messages: [`model ${modelId} has no presets: only models of the registry (model_…) have`] }]);
    await this.access.readable(tenant, modelId);
    const row = await this.presets.find(modelId, presetId);
    if (!row)
      throw ApiError.validation([{ field: 'presetId', messages: [`model ${modelId} has no preset ${presetId}`] }]);
    const { type: _type, ...parameters } = row.parameters as Record<string, unknown>;
    return { ...parameters, ...rest };
  }
}

/** Upstream's preset parameters: `prompt` and `type` (an inference type) always, then what the job was asked, minus the executor's fields. */
export function presetParameters(input: Record<string, unknown>): Record<string, unknown> {
  const kept = Object.entries(input).filter(
    ([name, value]) => !EXECUTOR_FIELDS.has(name) && !(typeof value === 'string' && value.startsWith(STORED_INPUT)),
  );
  // The job's inference type when upstream has it, else its mode's; a custom or tool job is `txt2img` (upstream's default).
  const type = [input.type, input.generationMode].find((t): t is string => typeof t === 'string' && PRESET_TYPES.includes(t)) ?? 'txt2img';
  const prompt = typeof input.prompt === 'string' ? input.prompt : '';
  return { ...Object.fromEntries(kept), prompt, type };
}

export function presetView(model: Pick<ModelRow, 'projectId'>, row: PresetRow): ModelPresetView {
  return {
    id: row.id,
    modelId: row.modelId,
    ownerId: model.projectId,
    authorId: row.authorId ?? '',
    parameters: row.parameters as Record<string, unknown>,
    isDefault: row.isDefault,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
