import { Injectable } from '@nestjs/common';
import type { TenantRef } from '@genasset/contracts';
import { ApiError } from '@genasset/http';
import { ModelAccess } from './model-access';
import { checkInputValues, type ModelInput } from './model-inputs';
import { isLegacyType, MODEL_ID } from './model-types';
import type { ModelRow } from './model.view';
import type { ModelArtifacts } from './training.service';

/** The generate route of each capability, for the pointer legacy models answer with. */
const ROUTE_OF_CAPABILITY: Record<string, string> = {
  txt2img: 'txt2img',
  img2img: 'img2img',
  inpaint: 'inpaint',
};

/**
 * What a generation needs from the registry about the model it names: that
 * the caller may use it, its input schema checked, and — for a model the
 * built-in trainer trained — where its learned colours are, so the worker
 * applies them (`input.learnedModel`).
 */
@Injectable()
export class ModelRuns {
  constructor(private readonly access: ModelAccess) {}

  /** For POST /generate/custom/{modelId}: the model, its inputs checked against `body`; 400s name the input. */
  async forCustom(tenant: TenantRef, modelId: string, body: Record<string, unknown>) {
    const model = await this.access.readable(tenant, modelId);
    if (isLegacyType(model.type)) {
      const route =
        ROUTE_OF_CAPABILITY[model.capabilities.find((c) => ROUTE_OF_CAPABILITY[c]) ?? 'txt2img'] ?? 'txt2img';
      throw new ApiError(
        400,
        'legacy_model',
        `model ${modelId} is a ${model.type} model: generate with POST /v1/generate/${route} (or another /v1/generate/{inferenceType} route) and modelId ${modelId}`,
        { modelId, type: model.type, path: `/v1/generate/${route}` },
      );
    }
    if (model.status === 'training')
      throw ApiError.conflict(`model ${modelId} is training: generate once it is trained`, {
        modelId,
        status: model.status,
      });
    const inputs = model.inputs as unknown as ModelInput[];
    if (inputs.length > 0) {
      const { errors, references } = checkInputValues(inputs, body);
      if (errors.length) throw ApiError.validation(errors);
      if (references.models.length) {
        const readable = await this.access.readableIds(
          tenant,
          references.models.map((r) => r.id),
        );
        const missing = references.models.find((r) => !readable.has(r.id));
        if (missing)
          throw new ApiError(404, 'not_found', `Model ${missing.id} not found (${missing.field})`, {
            id: missing.id,
            field: missing.field,
          });
      }
    }
    return { model, learnedModel: learnedModelOf(model), constrained: inputs.length > 0 };
  }

  /**
   * For the other modes: a registry id (`model_…`) in `modelId` must name a
   * model the caller may read (404 naming modelId otherwise) of a legacy family
   * (a custom model answers with a pointer to /generate/custom/{modelId}).
   * Other ids are base-model names (`flux.1-dev`, `gpt-image-1`) handed to the
   * engine as they are. Returns the model's learned files, if any.
   */
  async forMode(
    tenant: TenantRef,
    modelId: unknown,
    mode: string,
  ): Promise<Record<string, unknown> | undefined> {
    if (typeof modelId !== 'string' || !modelId.startsWith('model_')) return undefined;
    const model = MODEL_ID.test(modelId)
      ? await this.access.readable(tenant, modelId).catch(() => undefined)
      : undefined;
    if (!model)
      throw new ApiError(404, 'not_found', `Model ${modelId} not found (modelId)`, {
        id: modelId,
        field: 'modelId',
      });
    if (!isLegacyType(model.type))
      throw new ApiError(
        400,
        'custom_model',
        `model ${modelId} is a ${model.type} model: generate with POST /v1/generate/custom/${modelId}, not /v1/generate/${mode}`,
        {
          modelId,
          type: model.type,
          path: `/v1/generate/custom/${modelId}`,
          fields: { modelId: [`use POST /v1/generate/custom/${modelId}`] },
        },
      );
    if (model.status === 'training')
      throw ApiError.conflict(`model ${modelId} is training: generate once it is trained`, {
        modelId,
        status: model.status,
      });
    return learnedModelOf(model);
  }

  /**
   * The other model ids of a request, those a job conditions on rather than
   * runs (`concepts.0.modelId`, `baseModelId`, the `modelId` of describe-style,
   * caption and prompt): the rule of `modelId` in {@link forMode} — a registry
   * id (`model_…`) must name a model the caller may read (its project's, or
   * public), else the same 404, naming the field; other ids are base-model
   * names handed to the engine as they are. One lookup for all of them.
   */
  async conditioning(tenant: TenantRef, refs: readonly ModelRef[]): Promise<void> {
    const registry = refs.filter((r) => r.id.startsWith('model_'));
    if (registry.length === 0) return;
    const readable = await this.access.readableIds(
      tenant,
      registry.map((r) => r.id),
    );
    const missing = registry.find((r) => !readable.has(r.id));
    if (missing)
      throw new ApiError(404, 'not_found', `Model ${missing.id} not found (${missing.field})`, {
        id: missing.id,
        field: missing.field,
      });
  }
}

/** A model id found in a request, with the dotted path of its field. */
export interface ModelRef {
  field: string;
  id: string;
}

/**
 * The model ids of a generate body other than the one the mode runs
 * (`runsModel`: `modelId` is checked by {@link ModelRuns.forMode}).
 */
export function conditioningModelRefs(body: Record<string, unknown>, runsModel: boolean): ModelRef[] {
  const refs: ModelRef[] = [];
  const add = (field: string, id: unknown) => {
    if (typeof id === 'string') refs.push({ field, id });
  };
  if (!runsModel) add('modelId', body.modelId);
  add('baseModelId', body.baseModelId);
  if (Array.isArray(body.concepts))
    body.concepts.forEach((concept: unknown, i) => {
      if (concept && typeof concept === 'object')
        add(`concepts.${i}.modelId`, (concept as Record<string, unknown>).modelId);
    });
  return refs;
}

/**
 * What the worker needs of the model (`input.learnedModel`): the key of its learned colours (the
 * built-in trainer), and the backend it names with the version that backend's training made — the
 * job runs there, on that version (docs/models.md, "Models on a backend").
 */
function learnedModelOf(model: ModelRow): Record<string, unknown> | undefined {
  const artifacts = model.status === 'trained' ? (model.artifacts as ModelArtifacts | null) : null;
  const file = artifacts?.trainer === 'builtin-colour' ? artifacts.files.find((f) => f.name === 'model.json') : undefined;
  const version = artifacts?.version && artifacts.backend === model.backend ? artifacts.version : undefined;
  if (!file && !model.backend) return undefined;
  return {
    modelId: model.id,
    ...(file ? { colours: file.key } : {}),
    ...(model.backend ? { backend: model.backend } : {}),
    ...(version ? { version } : {}),
  };
}
