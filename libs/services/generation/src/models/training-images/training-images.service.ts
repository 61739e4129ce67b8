import { Inject, Injectable } from '@nestjs/common';
import { ASSETS_API, type AssetsApi, type TenantRef } from '@genasset/contracts';
import { ApiError, type FieldError } from '@genasset/http';
import { decodeImageDataUrl } from '../../generate/inputs/data-url';
import { publicError } from '../../generate/internal-errors';
import { ModelAccess } from '../model-access';
import { ASSET_ID, MODEL_LIMITS, PAIRED_MODEL_TYPES } from '../model-types';
import type { TrainingImageView } from '../model.view';
import { ModelsService } from '../models.service';
import { TrainingImageRepository, type TrainingPair } from './training-image.repository';
import type { ReplaceTrainingImageBody } from './training-image.dto';

const INSTRUCTION_CHARS = 2000;

/** Replacing one training image, removing several, and the image pairs of instruction-editing models. */
@Injectable()
export class TrainingImagesService {
  constructor(
    private readonly access: ModelAccess,
    private readonly images: TrainingImageRepository,
    private readonly models: ModelsService,
    @Inject(ASSETS_API) private readonly assets: AssetsApi,
  ) {}

  async replace(
    tenant: TenantRef,
    modelId: string,
    trainingImageId: string,
    body: ReplaceTrainingImageBody,
  ): Promise<{ trainingImage: TrainingImageView }> {
    const given = body.assetId ?? body.assetIds?.[0];
    if (given === undefined && body.data === undefined)
      throw ApiError.validation([{ field: 'assetId', messages: ['assetId, assetIds or data is required'] }]);
    if (given === undefined && (typeof body.data !== 'string' || !body.data.startsWith('data:')))
      throw ApiError.validation([{ field: 'data', messages: ['data must be a data URL of an image (data:image/png;base64,…)'] }]);
    if (given === undefined) await decodeImageDataUrl(body.data!, 'data');
    const row = await this.access.owned(tenant, modelId);
    if (row.status === 'training')
      throw ApiError.conflict(`model ${modelId} is training: its training images cannot change now`);
    const assetId = given ?? (await this.upload(tenant, body.data!, body.name));
    if (given !== undefined) {
      const [object] = await this.assets.objects(tenant, [given]).catch((e: unknown) => Promise.reject(publicError(e)));
      if (!object) throw new ApiError(404, 'not_found', `Asset ${given} not found`, { id: given, field: 'assetId' });
      if (object.kind !== 'image')
        throw ApiError.validation([{ field: 'assetId', messages: [`asset ${given} is not an image (${object.mimeType})`] }]);
    }
    // An asset id wins over data and name (upstream): the name is kept then.
    await this.images.replace(row.id, trainingImageId, assetId, given === undefined ? body.name : undefined);
    const { trainingImages } = await this.models.trainingImages(tenant, modelId);
    return { trainingImage: trainingImages.find((i) => i.id === assetId)! };
  }

  async remove(tenant: TenantRef, modelId: string, ids: string): Promise<Record<string, never>> {
    const assetIds = [...new Set(ids.split(',').map((id) => id.trim()).filter(Boolean))];
    if (assetIds.length === 0 || assetIds.some((id) => !ASSET_ID.test(id)))
      throw ApiError.validation([{ field: 'ids', messages: ['ids must be asset ids, comma separated'] }]);
    const row = await this.access.owned(tenant, modelId);
    await this.images.remove(row.id, assetIds);
    return {};
  }

  async setPairs(tenant: TenantRef, modelId: string, body: unknown): Promise<{ count: number; pairs: TrainingPair[] }> {
    const pairs = checkPairs(body);
    const row = await this.access.owned(tenant, modelId);
    if (!PAIRED_MODEL_TYPES.includes(row.type))
      throw ApiError.validation([
        { field: 'type', messages: [`a ${row.type} model takes no image pairs (only ${PAIRED_MODEL_TYPES.join(', ')})`] },
      ]);
    const saved = await this.images.setPairs(row.id, pairs);
    return { count: saved.length, pairs: saved };
  }

  private async upload(tenant: TenantRef, data: string, name: string | undefined): Promise<string> {
    const { assetId } = await this.assets
      .uploadImage(tenant, { data, ...(name ? { name } : {}) })
      .catch((e: unknown) => Promise.reject(publicError(e)));
    return assetId;
  }
}

/** The body of PUT /training-images/pairs: an array of { sourceId, targetId, instruction }, checked field by field. */
export function checkPairs(body: unknown): TrainingPair[] {
  if (!Array.isArray(body))
    throw ApiError.validation([{ field: '(body)', messages: ['the body must be an array of { sourceId, targetId, instruction }'] }]);
  if (body.length > MODEL_LIMITS.trainingImages)
    throw ApiError.validation([{ field: '(body)', messages: [`at most ${MODEL_LIMITS.trainingImages} pairs`] }]);
  const errors: FieldError[] = [];
  const pairs = body.map((item: unknown, i): TrainingPair => {
    const pair = (item ?? {}) as Record<string, unknown>;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      errors.push({ field: `[${i}]`, messages: ['a pair is an object'] });
      return { sourceId: '', targetId: '', instruction: '' };
    }
    for (const side of ['sourceId', 'targetId'])
      if (typeof pair[side] !== 'string' || !ASSET_ID.test(pair[side] as string))
        errors.push({ field: `[${i}].${side}`, messages: [`${side} must be an asset id`] });
    if (pair.instruction !== undefined && (typeof pair.instruction !== 'string' || pair.instruction.length > INSTRUCTION_CHARS))
      errors.push({ field: `[${i}].instruction`, messages: [`instruction must be a string of at most ${INSTRUCTION_CHARS} characters`] });
    if (pair.sourceId === pair.targetId && typeof pair.sourceId === 'string')
      errors.push({ field: `[${i}].targetId`, messages: ['targetId must differ from sourceId'] });
    const unknown = Object.keys(pair).find((k) => !['sourceId', 'targetId', 'instruction'].includes(k));
    if (unknown) errors.push({ field: `[${i}].${unknown}`, messages: [`property ${unknown} should not exist`] });
    return { sourceId: String(pair.sourceId), targetId: String(pair.targetId), instruction: typeof pair.instruction === 'string' ? pair.instruction : '' };
  });
  if (errors.length) throw ApiError.validation(errors);
  return pairs;
}
