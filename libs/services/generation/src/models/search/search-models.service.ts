import { Injectable } from '@nestjs/common';
import type { TenantRef } from '@genasset/contracts';
import { ApiError, pageFields, parseFilter, searchPaging, searchSort, type FieldError, type SearchBody, type SearchPageFields } from '@genasset/http';
import { MODEL_LIMITS } from '../model-types';
import { ModelsService } from '../models.service';
import { SearchModelsRepository } from './search-models.repository';

const MODEL_FILTER_SPEC = {
  scalar: ['id', 'type', 'privacy', 'status', 'authorId'],
  arrays: ['tags', 'capabilities', 'collectionIds'],
  dates: ['createdAt', 'updatedAt'],
};
/** Refused with public: true, as for assets: they would probe another tenant's private data. */
const PUBLIC_SCOPE_REFUSED = ['authorId', 'collectionIds'];

/**
 * POST /v1/search/models: full text over name, tags, capabilities and
 * descriptions (generated `search_text`, GIN), the filter subset and paging of
 * asset search, over the project's models or every team's public ones. Image
 * similarity is refused: models have no embedding of their own (their example
 * images live in asset-service; docs/search.md, "What is not built").
 */
@Injectable()
export class SearchModelsService {
  constructor(
    private readonly search: SearchModelsRepository,
    private readonly models: ModelsService,
  ) {}

  async execute(tenant: TenantRef, body: SearchBody): Promise<{ hits: Record<string, unknown>[] } & SearchPageFields> {
    const errors: FieldError[] = [];
    const fail = (error: FieldError) => errors.push(error);
    const query = body.query?.trim() ? body.query.trim() : undefined;
    for (const field of ['image', 'images'] as const) {
      if (body[field] !== undefined) {
        fail({ field, messages: [`${field}: similar-image search is not available for models (no model embeddings; docs/search.md): use query and filter`] });
      }
    }
    if (query === undefined && body.filter === undefined && !errors.length) {
      fail({ field: 'query', messages: ['at least one of query, filter, image or images must have a value'] });
    }
    const paging = searchPaging(body, fail);
    const sort = searchSort(body.sortBy, ['createdAt', 'updatedAt'], fail);
    if (errors.length) throw ApiError.validation(errors);
    const conditions = body.filter !== undefined ? parseFilter(body.filter, MODEL_FILTER_SPEC) : [];
    const publicScope = body.public === true;
    const refused = publicScope ? conditions.find((c) => PUBLIC_SCOPE_REFUSED.includes(c.attribute)) : undefined;
    if (refused) {
      throw ApiError.validation([{ field: 'filter', messages: [`filter: ${refused.attribute} is not available with public: true (every team's public models)`] }]);
    }

    const { ordered, scores, total } = await this.search.run({
      projectId: publicScope ? undefined : tenant.projectId,
      conditions,
      query,
      sort,
      paging,
    });
    const views = await this.models.views(ordered, MODEL_LIMITS.listTrainingImages);
    // Upstream's search hit requires name and shortDescription, which a model may not have yet: '' then.
    const hits = views.map((view, i) => ({
      ...view,
      name: ordered[i].name ?? '',
      shortDescription: ordered[i].shortDescription ?? '',
      teamId: ordered[i].teamId,
      concepts: [],
      score: scores.get(ordered[i].id) ?? 0,
    }));
    return { hits, ...pageFields(paging, total) };
  }
}
