import { Inject, Injectable, Logger } from '@nestjs/common';
import { ASSETS_API, prefixedId, type AssetsApi, type TenantRef } from '@genasset/contracts';
import { ApiError } from '@genasset/http';
import { OBJECT_STORE, type ObjectStore } from '@genasset/storage';
import type { Prisma } from '../../generated/prisma/client';
import { publicError } from '../../generate/internal-errors';
import { ModelAccess } from '../model-access';
import type { ModelRow } from '../model.view';
import { ModelsService } from '../models.service';
import { modelFilesPrefix } from '../training-facts.controller';
import type { ModelArtifacts } from '../training.service';
import type { TrainingPair } from '../training-images/training-image.repository';
import { ModelCopyRepository, type ModelClone } from './model-copy.repository';

interface CloneOptions {
  examples: boolean;
  trained: boolean;
  /** Transfer: the source goes in the same transaction. */
  move: boolean;
}

/**
 * Copy (same project) and transfer (another project of the same team) of a
 * model with its training images, pairs, presets, description, examples and,
 * when trained, its model files. Into another project, the training and
 * example images are copied as assets of that project (asset-service,
 * AssetsApi.copy) and the model files as objects under the new model's prefix.
 */
@Injectable()
export class ModelCopyService {
  private readonly logger = new Logger('ModelCopy');

  constructor(
    private readonly access: ModelAccess,
    private readonly copies: ModelCopyRepository,
    private readonly models: ModelsService,
    @Inject(ASSETS_API) private readonly assets: AssetsApi,
    @Inject(OBJECT_STORE) private readonly store: ObjectStore,
  ) {}

  async copy(tenant: TenantRef, modelId: string, options: { copyExamples?: boolean; copyAsTrained?: boolean }) {
    const source = await this.access.owned(tenant, modelId);
    const row = await this.clone(tenant, source, tenant, {
      examples: options.copyExamples ?? true,
      trained: options.copyAsTrained ?? false,
      move: false,
    });
    return { model: (await this.models.views([row], 3))[0] };
  }

  /** `destination` is the project the caller's credentials resolved (ProjectScopes): of the caller's team. */
  async transfer(tenant: TenantRef, modelId: string, destination: TenantRef, destinationTeamId?: string) {
    if (destinationTeamId !== undefined && destinationTeamId !== tenant.teamId)
      throw ApiError.validation([{ field: 'destinationTeamId', messages: ['models move between projects of the caller’s team only'] }]);
    if (destination.projectId === tenant.projectId)
      throw ApiError.validation([{ field: 'destinationProjectId', messages: ['the model is already in this project'] }]);
    const source = await this.access.owned(tenant, modelId);
    const row = await this.clone(tenant, source, destination, { examples: true, trained: true, move: true });
    // The source's files now live under the new model's prefix: the old objects go (best effort).
    const old = (source.artifacts as ModelArtifacts | null)?.files ?? [];
    if (old.length) await this.store.delete(old.map((f) => f.key)).catch(() => undefined);
    return { model: (await this.models.views([row], 3))[0] };
  }

  private async clone(tenant: TenantRef, source: ModelRow, target: TenantRef, options: CloneOptions): Promise<ModelRow> {
    if (source.status === 'training') throw ApiError.conflict(`model ${source.id} is training: cancel the training first`);
    const id = prefixedId('model');
    const images = await this.copies.trainingImages(source.id);
    const examples = options.examples ? source.exampleAssetIds : [];
    const assetIds = await this.assetMap(tenant, target, [...images.map((i) => i.assetId), ...examples]);
    const trained = options.trained && source.status === 'trained';
    const artifacts = trained ? await this.copyFiles(source, target, id) : undefined;
    const mapped = (assetId: string) => assetIds.get(assetId);
    const pairs = ((source.trainingPairs ?? []) as unknown as TrainingPair[])
      .filter((p) => mapped(p.sourceId) && mapped(p.targetId))
      .map((p) => ({ ...p, sourceId: mapped(p.sourceId)!, targetId: mapped(p.targetId)! }));
    const clone: ModelClone = {
      data: {
        id,
        teamId: target.teamId,
        projectId: target.projectId,
        authorId: tenant.authorId ?? null,
        name: source.name,
        shortDescription: source.shortDescription,
        type: source.type,
        // A copy starts private (as an asset copy does); a moved model keeps its privacy.
        privacy: options.move ? source.privacy : 'private',
        status: trained ? 'trained' : 'new',
        capabilities: source.capabilities,
        inputs: source.inputs as Prisma.InputJsonValue,
        tags: source.tags,
        ...(source.parameters ? { parameters: source.parameters as Prisma.InputJsonValue } : {}),
        ...(source.backend ? { backend: source.backend } : {}),
        ...(trained && source.trainingStats ? { trainingStats: source.trainingStats as Prisma.InputJsonValue } : {}),
        ...(artifacts ? { artifacts: artifacts as unknown as Prisma.InputJsonValue } : {}),
        description: source.description,
        exampleAssetIds: examples.flatMap((a) => (mapped(a) ? [mapped(a)!] : [])),
        trainingPairs: pairs as unknown as Prisma.InputJsonValue,
      },
      images: images.flatMap((i) =>
        mapped(i.assetId) ? [{ assetId: mapped(i.assetId)!, name: i.name, description: i.description, createdAt: i.createdAt }] : [],
      ),
    };
    try {
      const row = await this.copies.save(source, clone, options.move ? tenant : undefined);
      this.logger.log(`model ${source.id} ${options.move ? 'moved' : 'copied'} to ${row.id} in ${target.projectId}`);
      return row;
    } catch (error) {
      if (artifacts) await this.store.delete(artifacts.files.map((f) => f.key)).catch(() => undefined);
      throw error;
    }
  }

  /** Asset ids in the target project: the same ids within a project, copies (asset-service) into another one. */
  private async assetMap(tenant: TenantRef, target: TenantRef, ids: string[]): Promise<Map<string, string>> {
    const unique = [...new Set(ids)];
    if (target.projectId === tenant.projectId) return new Map(unique.map((id) => [id, id]));
    const copies = unique.length
      ? await this.assets.copy(tenant, unique, target.projectId).catch((e: unknown) => Promise.reject(publicError(e)))
      : [];
    return new Map(copies.map((c) => [c.assetId, c.copyId]));
  }

  /** The trained files, copied under the new model's prefix (a deleted or transferred source keeps nothing shared). */
  private async copyFiles(source: ModelRow, target: TenantRef, id: string): Promise<ModelArtifacts | undefined> {
    const artifacts = source.artifacts as ModelArtifacts | null;
    // A backend's training (Replicate) has no files here, only the version it made there: the copy runs the same version.
    if (artifacts?.version && !artifacts.files?.length) return { ...artifacts, files: [] };
    if (!artifacts?.files?.length) return undefined;
    const prefix = modelFilesPrefix(target.projectId, id, 'copy');
    const files: ModelArtifacts['files'] = [];
    try {
      for (const file of artifacts.files) {
        const object = await this.store.get(file.key);
        const chunks: Buffer[] = [];
        for await (const chunk of object.body) chunks.push(chunk as Buffer);
        const key = `${prefix}${file.name}`;
        await this.store.put(key, Buffer.concat(chunks), { contentType: object.contentType ?? file.contentType ?? 'application/octet-stream' });
        files.push({ ...file, key });
      }
    } catch (error) {
      await this.store.delete(files.map((f) => f.key)).catch(() => undefined);
      throw error;
    }
    return { ...artifacts, prefix, files };
  }
}
