import { Inject, Injectable } from '@nestjs/common';
import { ASSETS_API, type AssetsApi, type TenantRef } from '@genasset/contracts';
import { ApiError } from '@genasset/http';
import { publicError } from '../../generate/internal-errors';
import { canRead, ModelAccess } from '../model-access';
import type { ModelRow } from '../model.view';
import { ModelPageRepository } from './model-page.repository';
import type { ModelDescriptionView, ModelExampleView } from './page.dto';

/** `{model:model_…}` and `{asset:asset_…}` in a description: the models and assets it shows. */
const REFERENCE = /\{(model|asset):([A-Za-z0-9_]{1,80})\}/g;

export function references(markdown: string): { models: string[]; assets: string[] } {
  const models = new Set<string>();
  const assets = new Set<string>();
  for (const [, kind, id] of markdown.matchAll(REFERENCE)) (kind === 'model' ? models : assets).add(id);
  return { models: [...models], assets: [...assets] };
}

/**
 * A model's page: its markdown description (with the models and assets its
 * tags name) and its example assets. Readers of another project's public
 * model see the assets of that project that are not private only.
 */
@Injectable()
export class ModelPageService {
  constructor(
    private readonly access: ModelAccess,
    private readonly pages: ModelPageRepository,
    @Inject(ASSETS_API) private readonly assets: AssetsApi,
  ) {}

  async description(tenant: TenantRef, modelId: string): Promise<{ description: ModelDescriptionView }> {
    return { description: await this.describe(tenant, await this.access.readable(tenant, modelId)) };
  }

  async setDescription(tenant: TenantRef, modelId: string, markdown: string): Promise<{ description: ModelDescriptionView }> {
    const row = await this.access.owned(tenant, modelId);
    const refs = references(markdown);
    const readable = await this.access.readableIds(tenant, refs.models);
    const existing = new Set(await this.assets.existing(tenant, refs.assets).catch((e: unknown) => Promise.reject(publicError(e))));
    const unknown = [...refs.models.filter((id) => !readable.has(id)), ...refs.assets.filter((id) => !existing.has(id))];
    if (unknown.length)
      throw ApiError.validation([{ field: 'description', messages: [`the description names unknown models or assets: ${unknown.join(', ')}`] }]);
    return { description: await this.describe(tenant, await this.pages.setDescription(row.id, markdown)) };
  }

  async examples(tenant: TenantRef, modelId: string): Promise<{ examples: ModelExampleView[] }> {
    return { examples: await this.exampleViews(tenant, await this.access.readable(tenant, modelId)) };
  }

  async setExamples(tenant: TenantRef, modelId: string, assetIds: string[]): Promise<{ examples: ModelExampleView[] }> {
    const row = await this.access.owned(tenant, modelId);
    const ids = [...new Set(assetIds)];
    const existing = new Set(await this.assets.existing(tenant, ids).catch((e: unknown) => Promise.reject(publicError(e))));
    const missing = ids.filter((id) => !existing.has(id));
    if (missing.length)
      throw ApiError.validation([{ field: 'assetIds', messages: [`not assets of this project: ${missing.join(', ')}`] }]);
    return { examples: await this.exampleViews(tenant, await this.pages.setExamples(row.id, ids)) };
  }

  private async describe(reader: TenantRef, row: ModelRow): Promise<ModelDescriptionView> {
    const refs = references(row.description);
    const models = refs.models.length ? await this.pages.summaries(refs.models) : [];
    const byId = new Map(models.filter((m) => canRead(reader, m)).map((m) => [m.id, m]));
    return {
      value: row.description,
      models: refs.models.flatMap((id) => {
        const m = byId.get(id);
        if (!m) return [];
        return [
          {
            id: m.id,
            type: m.type,
            privacy: m.privacy,
            ownerId: m.projectId,
            ...(m.name ? { name: m.name } : {}),
            ...(m.shortDescription ? { shortDescription: m.shortDescription } : {}),
            ...(m.authorId ? { authorId: m.authorId } : {}),
          },
        ];
      }),
      assets: await this.assetViews(reader, row, refs.assets),
    };
  }

  private async exampleViews(reader: TenantRef, row: ModelRow): Promise<ModelExampleView[]> {
    const assets = await this.assetViews(reader, row, row.exampleAssetIds);
    return assets.map((asset) => {
      const inferenceId = (asset.metadata as Record<string, unknown> | undefined)?.inferenceId;
      return { modelId: row.id, asset, ...(typeof inferenceId === 'string' ? { inferenceId } : {}) };
    });
  }

  /** Assets of the model's project, in the given order; a reader from another project sees the non-private ones only. */
  private async assetViews(reader: TenantRef, row: ModelRow, ids: readonly string[]): Promise<Record<string, unknown>[]> {
    if (ids.length === 0) return [];
    const views = await this.assets
      .views({ teamId: row.teamId, projectId: row.projectId }, ids)
      .catch((e: unknown) => Promise.reject(publicError(e)));
    return reader.projectId === row.projectId ? views : views.filter((v) => v.privacy !== 'private');
  }
}
