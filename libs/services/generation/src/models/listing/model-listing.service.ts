import { Injectable } from '@nestjs/common';
import type { TenantRef } from '@genasset/contracts';
import { ApiError } from '@genasset/http';
import type { Prisma } from '../../generated/prisma/client';
import { canRead } from '../model-access';
import { decodeToken, encodeToken } from '../model-page-token';
import { MODEL_ID, MODEL_LIMITS, MODEL_TYPES } from '../model-types';
import { ModelsService } from '../models.service';
import { ModelListingRepository } from './model-listing.repository';
import type { GetBulkModelsBody, PublicModelsQuery } from './listing.dto';

type ModelView = Record<string, unknown>;
const PUBLIC_PAGE_SIZE = 50;

const list = (value: string | undefined) =>
  value
    ?.split(',')
    .map((v) => v.trim())
    .filter(Boolean) ?? [];

/**
 * Reads across projects: every team's public models (credential-free, as
 * GET /v1/assets/public is), and several models by id (those the caller may read).
 */
@Injectable()
export class ModelListingService {
  constructor(
    private readonly rows: ModelListingRepository,
    private readonly models: ModelsService,
  ) {}

  async listPublic(query: PublicModelsQuery): Promise<{ models: ModelView[]; nextPaginationToken?: string }> {
    const sortBy = query.sortBy ?? 'createdAt';
    const direction = query.sortDirection ?? 'desc';
    const pageSize = query.pageSize ?? PUBLIC_PAGE_SIZE;
    const where: Prisma.ModelWhereInput[] = [{ privacy: 'public' }, ...this.filters(query, sortBy)];
    if (query.paginationToken) {
      const after = decodeToken(query.paginationToken);
      const beyond = direction === 'desc' ? 'lt' : 'gt';
      where.push({
        OR: [
          { [sortBy]: { [beyond]: after.createdAt } },
          { [sortBy]: after.createdAt, id: { [beyond]: after.id } },
        ],
      });
    }
    const rows = await this.rows.page({ AND: where }, [{ [sortBy]: direction }, { id: direction }], pageSize + 1);
    const page = rows.slice(0, pageSize);
    const last = page[page.length - 1];
    return {
      models: await this.models.views(page, MODEL_LIMITS.listTrainingImages),
      ...(rows.length > pageSize && last ? { nextPaginationToken: encodeToken(last, last[sortBy]) } : {}),
    };
  }

  /** A public model by id, whoever asks (unlisted ones too: their id is their secret, as for reads with a key). */
  async getPublic(modelId: string): Promise<{ model: ModelView }> {
    const row = MODEL_ID.test(modelId) ? (await this.rows.byIds([modelId]))[0] : undefined;
    if (!row || row.privacy === 'private') throw ApiError.notFound(`model ${modelId} not found`, modelId);
    return { model: (await this.models.views([row], MODEL_LIMITS.trainingImages))[0] };
  }

  /** The readable models among `modelIds`, in the given order; unknown and unreadable ids are left out, as asset get-bulk does. */
  async getBulk(tenant: TenantRef, body: GetBulkModelsBody): Promise<{ models: ModelView[] }> {
    const ids = [...new Set(body.modelIds.filter((id) => MODEL_ID.test(id)))];
    const byId = new Map((await this.rows.byIds(ids)).filter((r) => canRead(tenant, r)).map((r) => [r.id, r]));
    const rows = ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
    if (body.minimal) return { models: rows.map((r) => ({ id: r.id, name: r.name ?? undefined, type: r.type })) };
    const all = body.allTrainingImages === true && body.trainingImagesPreview !== true;
    return {
      models: await this.models.views(rows, all ? MODEL_LIMITS.trainingImages : MODEL_LIMITS.listTrainingImages),
    };
  }

  private filters(query: PublicModelsQuery, sortBy: 'createdAt' | 'updatedAt'): Prisma.ModelWhereInput[] {
    const where: Prisma.ModelWhereInput[] = [];
    const types = [...(query.type ? [query.type] : []), ...list(query.types)];
    const unknown = types.find((t) => !(MODEL_TYPES as readonly string[]).includes(t));
    if (unknown) throw ApiError.validation([{ field: 'types', messages: [`${unknown} is not a model type`] }]);
    if (types.length) where.push({ type: { in: types } });
    const tags = list(query.tags);
    if (tags.length) where.push({ tags: { hasEvery: tags } });
    const collections = list(query.collectionIds);
    if (collections.length) where.push({ collectionIds: { hasSome: collections } });
    const bounds = [
      ['createdBefore', 'createdAt', 'lt'],
      ['createdAfter', 'createdAt', 'gt'],
      ['updatedBefore', 'updatedAt', 'lt'],
      ['updatedAfter', 'updatedAt', 'gt'],
    ] as const;
    for (const [param, field, op] of bounds) {
      const value = query[param];
      if (value === undefined) continue;
      // Upstream: each bound "requires the sortBy parameter to be" its field.
      if (field !== sortBy)
        throw ApiError.validation([{ field: param, messages: [`${param} needs sortBy=${field}`] }]);
      where.push({ [field]: { [op]: new Date(value) } });
    }
    return where;
  }
}
