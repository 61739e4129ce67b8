import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  ASSETS_API,
  JOBS_API,
  ModelDeleted,
  prefixedId,
  type AssetsApi,
  type JobsApi,
  type TenantRef,
} from '@genasset/contracts';
import { ApiError } from '@genasset/http';
import { InjectOutbox, Outbox } from '@genasset/messaging';
import { OBJECT_STORE, type ObjectStore } from '@genasset/storage';
import { GENERATION_SCHEMA } from '../generation.schema';
import type { Prisma } from '../generated/prisma/client';
import { decodeImageDataUrl } from '../generate/inputs/data-url';
import { publicError } from '../generate/internal-errors';
import type {
  AddTrainingImagesBody,
  CreateModelBody,
  ListModelsQuery,
  ModelTagsBody,
  UpdateModelBody,
} from './dto/model.dto';
import { ModelAccess } from './model-access';
import { decodeToken, encodeToken } from './model-page-token';
import { checkInputDefinitions } from './model-inputs';
import { DEFAULT_CAPABILITIES, MODEL_LIMITS } from './model-types';
import { ModelsRepository, type TrainingImageRow } from './models.repository';
import { toModelView, trainingImageView, type ModelRow, type TrainingImageView } from './model.view';

/** Training image URLs are signed for this long. */
const URL_SECONDS = 3600;
type ModelView = Record<string, unknown>;

/** The model registry's routes: list, read, create, update, delete, tags, training images. */
@Injectable()
export class ModelsService {
  private readonly logger = new Logger('Models');

  constructor(
    private readonly models: ModelsRepository,
    private readonly access: ModelAccess,
    @Inject(ASSETS_API) private readonly assets: AssetsApi,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
    @Inject(JOBS_API) private readonly jobs: JobsApi,
    @InjectOutbox(GENERATION_SCHEMA.schema) private readonly outbox: Outbox,
  ) {}

  async list(
    tenant: TenantRef,
    query: ListModelsQuery,
  ): Promise<{ models: ModelView[]; nextPaginationToken?: string }> {
    // Upstream's team blacklist: no model is ever blacklisted here.
    if (query.blacklisted === 'true') return { models: [] };
    const pageSize = query.pageSize ?? MODEL_LIMITS.pageSize.default;
    const after = query.paginationToken ? decodeToken(query.paginationToken) : undefined;
    const tags = query.tags
      ?.split(',')
      .map((t) => t.trim())
      .filter(Boolean);
    const where: Prisma.ModelWhereInput = {
      ...(query.privacy === 'public' ? { privacy: 'public' } : { projectId: tenant.projectId }),
      ...(query.status ? { status: query.status } : {}),
      ...(query.type ? { type: query.type } : {}),
      ...(query.collectionId ? { collectionIds: { has: query.collectionId } } : {}),
      ...(tags?.length ? { tags: { hasEvery: tags } } : {}),
      ...(after
        ? {
            OR: [
              { createdAt: { lt: after.createdAt } },
              { createdAt: after.createdAt, id: { lt: after.id } },
            ],
          }
        : {}),
    };
    const rows = await this.models.page(where, pageSize + 1);
    const page = rows.slice(0, pageSize);
    const models = await this.views(page, MODEL_LIMITS.listTrainingImages);
    const last = page[page.length - 1];
    return {
      models,
      ...(rows.length > pageSize && last ? { nextPaginationToken: encodeToken(last) } : {}),
    };
  }

  async get(tenant: TenantRef, modelId: string): Promise<{ model: ModelView }> {
    const row = await this.access.readable(tenant, modelId);
    const model = (await this.views([row], MODEL_LIMITS.trainingImages))[0];
    return { model: await this.withLiveProgress(row, model) };
  }

  /**
   * While a model trains, job-service holds the progress the trainer reports
   * (lifecycle facts only mark start and end): one model's GET reads it there,
   * so `trainingProgress.progress` moves while the training runs. Best effort:
   * if job-service cannot answer, the progress of the last fact stands.
   */
  private async withLiveProgress(row: ModelRow, model: ModelView): Promise<ModelView> {
    if (row.status !== 'training' || !row.trainingJobId) return model;
    const job = await this.jobs
      .getJob({ teamId: row.teamId, projectId: row.projectId }, row.trainingJobId)
      .catch(() => undefined);
    if (!job) return model;
    const progress = (model.trainingProgress ?? {}) as Record<string, unknown>;
    const stage = job.status === 'queued' || job.status === 'pending' ? 'queued-for-train' : 'running-train';
    return {
      ...model,
      trainingProgress: { ...progress, stage, progress: job.progress, updatedAt: Date.parse(job.updatedAt) },
    };
  }

  async create(tenant: TenantRef, body: CreateModelBody): Promise<{ model: ModelView }> {
    if (body.collectionIds !== undefined)
      throw ApiError.validation([
        {
          field: 'collectionIds',
          messages: [
            'collectionIds is not supported here: add the model with PUT /v1/collections/{collectionId}/models',
          ],
        },
      ]);
    const inputs = this.inputsOf(body.inputs);
    const row = await this.models.create({
      id: prefixedId('model'),
      teamId: tenant.teamId,
      projectId: tenant.projectId,
      authorId: tenant.authorId ?? null,
      name: body.name ?? null,
      shortDescription: body.shortDescription ?? null,
      type: body.type ?? 'custom',
      privacy: body.privacy ?? 'private',
      capabilities: body.capabilities ?? DEFAULT_CAPABILITIES,
      inputs: (inputs ?? []) as unknown as Prisma.InputJsonValue,
      tags: [...new Set(body.tags ?? [])],
      ...(body.parameters ? { parameters: body.parameters as Prisma.InputJsonValue } : {}),
      ...(body.backend ? { backend: body.backend } : {}),
    });
    this.logger.log(`model ${row.id} created in ${tenant.projectId}`);
    return { model: (await this.views([row], 0))[0] };
  }

  async update(tenant: TenantRef, modelId: string, body: UpdateModelBody): Promise<{ model: ModelView }> {
    const row = await this.access.owned(tenant, modelId);
    if (body.type !== undefined && body.type !== row.type && row.status !== 'new')
      throw ApiError.validation([
        { field: 'type', messages: ['type can only be changed while the model is new'] },
      ]);
    const inputs = this.inputsOf(body.inputs);
    const updated = await this.models.update(row.id, {
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.shortDescription !== undefined ? { shortDescription: body.shortDescription } : {}),
      ...(body.type !== undefined ? { type: body.type } : {}),
      ...(body.privacy !== undefined ? { privacy: body.privacy } : {}),
      ...(body.capabilities !== undefined ? { capabilities: body.capabilities } : {}),
      ...(inputs !== undefined ? { inputs: inputs as unknown as Prisma.InputJsonValue } : {}),
      ...(body.parameters !== undefined ? { parameters: body.parameters as Prisma.InputJsonValue } : {}),
      ...(body.backend !== undefined ? { backend: body.backend } : {}),
      updatedAt: new Date(),
    });
    return this.get(tenant, updated.id);
  }

  /** Deletes the model and its training-image links (the image assets stay); refused while it trains. */
  async delete(tenant: TenantRef, modelId: string): Promise<Record<string, never>> {
    const row = await this.access.owned(tenant, modelId);
    // The row and its model.deleted fact commit together (collections drop the model on it).
    const deleted = await this.models.transaction(async (tx) => {
      const gone = await this.models.deleteUnlessTraining(tx, row.id);
      if (gone)
        await this.outbox.write(tx, [
          this.outbox.event(ModelDeleted, { modelId: row.id, teamId: row.teamId, projectId: row.projectId }),
        ]);
      return gone;
    });
    if (!deleted)
      throw ApiError.conflict(`model ${modelId} is training: cancel the training first`, { modelId });
    const files = (row.artifacts as { files?: { key: string }[] } | null)?.files ?? [];
    if (files.length) await this.store.delete(files.map((f) => f.key)).catch(() => undefined);
    return {};
  }

  async tags(
    tenant: TenantRef,
    modelId: string,
    body: ModelTagsBody,
  ): Promise<{ added: string[]; deleted: string[] }> {
    const row = await this.access.owned(tenant, modelId);
    const current = new Set(row.tags);
    const add = [...new Set(body.add ?? [])];
    const remove = [...new Set(body.delete ?? [])];
    // As for asset tags: one edit cannot both add and delete a tag (which would win is a guess).
    const both = add.filter((t) => remove.includes(t));
    if (both.length)
      throw ApiError.validation([
        { field: 'add', messages: [`tags cannot be both added and deleted: ${both.join(', ')}`] },
      ]);
    // Upstream: `strict` defaults to true (false makes the edit idempotent).
    if (body.strict ?? true) {
      const present = add.filter((t) => current.has(t));
      const absent = remove.filter((t) => !current.has(t));
      if (present.length || absent.length)
        throw ApiError.validation([
          ...(present.length ? [{ field: 'add', messages: [`already tagged: ${present.join(', ')}`] }] : []),
          ...(absent.length ? [{ field: 'delete', messages: [`not tagged: ${absent.join(', ')}`] }] : []),
        ]);
    }
    const added = add.filter((t) => !current.has(t));
    const deleted = remove.filter((t) => current.has(t));
    const next = [...row.tags.filter((t) => !deleted.includes(t)), ...added];
    if (next.length > MODEL_LIMITS.tags)
      throw ApiError.validation([
        { field: 'add', messages: [`a model holds at most ${MODEL_LIMITS.tags} tags`] },
      ]);
    // Conditional on the tags read, so two concurrent edits cannot overwrite each other silently.
    if (!(await this.models.replaceTags(row.id, row.tags, next)))
      throw ApiError.conflict(`the tags of model ${modelId} changed meanwhile: retry`);
    return { added, deleted };
  }

  async addTrainingImages(
    tenant: TenantRef,
    modelId: string,
    body: AddTrainingImagesBody,
  ): Promise<{ trainingImage: TrainingImageView; trainingImages: TrainingImageView[] }> {
    const ids = [...new Set([...(body.assetId ? [body.assetId] : []), ...(body.assetIds ?? [])])];
    if (body.data !== undefined && ids.length > 0)
      throw ApiError.validation([{ field: 'data', messages: ['give data or assetId/assetIds, not both'] }]);
    if (body.data === undefined && ids.length === 0)
      throw ApiError.validation([{ field: 'assetId', messages: ['data, assetId or assetIds is required'] }]);
    if (body.data !== undefined) await checkImageData(body.data);
    const row = await this.access.owned(tenant, modelId);
    if (row.status === 'training')
      throw ApiError.conflict(`model ${modelId} is training: its training images cannot change now`);
    if (body.data !== undefined) {
      // An image sent inline becomes an uploaded asset of the project first (asset-service owns assets).
      await this.checkRoom(row.id, [], 1);
      const { assetId } = await this.assets
        .uploadImage(tenant, { data: body.data as string, ...(body.name ? { name: body.name } : {}) })
        .catch((e: unknown) => Promise.reject(publicError(e)));
      ids.push(assetId);
    }
    const objects = await this.assets
      .objects(tenant, ids)
      .catch((e: unknown) => Promise.reject(publicError(e)));
    const found = new Map(objects.map((o) => [o.assetId, o]));
    for (const id of ids) {
      const object = found.get(id);
      if (!object) throw new ApiError(404, 'not_found', `Asset ${id} not found`, { id, field: 'assetId' });
      if (object.kind !== 'image')
        throw ApiError.validation([
          { field: 'assetId', messages: [`asset ${id} is not an image (${object.mimeType})`] },
        ]);
    }
    await this.models.transaction(async (tx) => {
      // The model row locked: concurrent additions cannot pass the limit together, and a training
      // reserved meanwhile (PUT /train updates this row) is seen.
      const status = await this.models.lockStatus(tx, row.id);
      if (status === undefined) throw ApiError.notFound(`model ${modelId} not found`, modelId);
      if (status === 'training')
        throw ApiError.conflict(`model ${modelId} is training: its training images cannot change now`);
      await this.checkRoom(row.id, ids, 0, tx);
      await this.models.addTrainingImages(tx, row.id, ids, body.name ?? '');
    });
    const images = await this.trainingImages(tenant, modelId);
    const byId = new Map(images.trainingImages.map((i) => [i.id, i]));
    return {
      trainingImage: byId.get(ids[0])!,
      trainingImages: ids.map((id) => byId.get(id)!).filter(Boolean),
    };
  }

  async trainingImages(tenant: TenantRef, modelId: string): Promise<{ trainingImages: TrainingImageView[] }> {
    const row = await this.access.readable(tenant, modelId);
    const images = await this.models.trainingImages(row.id);
    return { trainingImages: await this.imageViews(row, images) };
  }

  async deleteTrainingImage(
    tenant: TenantRef,
    modelId: string,
    trainingImageId: string,
  ): Promise<Record<string, never>> {
    const row = await this.access.owned(tenant, modelId);
    if (row.status === 'training')
      throw ApiError.conflict(`model ${modelId} is training: its training images cannot change now`);
    if (!(await this.models.removeTrainingImage(row.id, trainingImageId)))
      throw ApiError.notFound(`training image ${trainingImageId} not found`, trainingImageId);
    return {};
  }

  /** Views of model rows with up to `imageLimit` training images each (one count and one query per page). */
  async views(rows: ModelRow[], imageLimit: number): Promise<ModelView[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const countOf = await this.models.trainingImageCounts(ids);
    // The first `imageLimit` images of each model only (a list shows 3 of up to 100).
    const images = imageLimit ? await this.models.firstTrainingImages(ids, imageLimit) : [];
    const urls = await this.imageUrls(rows, images);
    return rows.map((row) =>
      toModelView(
        row,
        images
          .filter((i) => i.modelId === row.id)
          .map((i) => trainingImageView(i, urls.get(i.assetId) ?? '')),
        countOf.get(row.id) ?? 0,
      ),
    );
  }

  private async imageViews(row: ModelRow, images: TrainingImageRow[]): Promise<TrainingImageView[]> {
    const urls = await this.imageUrls([row], images);
    return images.map((i) => trainingImageView(i, urls.get(i.assetId) ?? ''));
  }

  /**
   * Signed URLs of training images by asset id: one AssetsApi call per owning
   * project (the images are assets of the model's project, whoever reads a
   * public model). A deleted asset keeps its row (training will say so) but
   * has nothing to download: no URL.
   */
  private async imageUrls(rows: ModelRow[], images: TrainingImageRow[]): Promise<Map<string, string>> {
    const urls = new Map<string, string>();
    if (images.length === 0) return urls;
    const projectOf = new Map(rows.map((r) => [r.id, r]));
    const byOwner = new Map<string, { teamId: string; projectId: string; assetIds: string[] }>();
    for (const image of images) {
      const row = projectOf.get(image.modelId);
      if (!row) continue;
      const owner = byOwner.get(row.projectId) ?? {
        teamId: row.teamId,
        projectId: row.projectId,
        assetIds: [],
      };
      owner.assetIds.push(image.assetId);
      byOwner.set(row.projectId, owner);
    }
    for (const owner of byOwner.values()) {
      const objects = await this.assets.objects(owner, owner.assetIds).catch(() => []);
      for (const object of objects)
        urls.set(object.assetId, await this.store.signedUrl(object.key, { expiresInSeconds: URL_SECONDS }));
    }
    return urls;
  }

  /**
   * Refuses going over the training-image limit: the model's images plus those of `assetIds` it
   * does not hold yet (adding one already there changes nothing), plus `more` not yet stored.
   */
  private async checkRoom(
    modelId: string,
    assetIds: readonly string[],
    more: number,
    tx?: Prisma.TransactionClient,
  ): Promise<void> {
    const { count, present } = await this.models.trainingImageRoom(modelId, assetIds, tx);
    if (count + assetIds.length - present + more > MODEL_LIMITS.trainingImages)
      throw ApiError.validation([
        {
          field: 'assetIds',
          messages: [`a model holds at most ${MODEL_LIMITS.trainingImages} training images`],
        },
      ]);
  }

  private inputsOf(value: unknown[] | undefined) {
    if (value === undefined) return undefined;
    const { inputs, errors } = checkInputDefinitions(value);
    if (errors.length) throw ApiError.validation(errors);
    return inputs;
  }
}

/** A training image sent inline: a data URL of an image, checked here so the 400 names `data`. */
async function checkImageData(data: unknown): Promise<void> {
  if (typeof data !== 'string' || !data.startsWith('data:'))
    throw ApiError.validation([
      { field: 'data', messages: ['data must be a data URL of an image (data:image/png;base64,…)'] },
    ]);
  await decodeImageDataUrl(data, 'data');
}
