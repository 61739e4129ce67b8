import { HttpStatus, Injectable } from '@nestjs/common';
import type { Principal } from '@genasset/auth';
import { ApiError, ApiErrorCode, countLimit, pageFields, parseFilter, searchPaging, searchSort, type FieldError, type FilterCondition, type SearchBody, type SearchPageFields } from '@genasset/http';
import { AssetPresenter, flag, type AssetView } from '../core/asset-presenter';
import { ASSET_ID_PATTERN } from '../core/asset-ids';
import { AssetRepository } from '../core/asset.repository';
import { decodeBase64Payload } from '../core/base64-payload';
import { LIMITS } from '../core/limits';
import { TenantScopes } from '../core/tenant-scope';
import { AssetEmbeddings } from '../embeddings/asset-embeddings';
import { tryImageEmbedding } from '../embeddings/image-embedding';
import { referenceVector } from './reference-vector';
import { SearchAssetsRepository, ASSET_FILTER_SPEC, type SearchCriteria } from './search-assets.repository';
import { SearchModel, SearchModelError } from './text-to-image/search-model';

/** Hybrid weight when a query and an image are both given and imageSemanticRatio is not. */
export const DEFAULT_SEMANTIC_RATIO = 0.5;
/** Weight of the search model's similarity in a query's score when a search model is configured and querySemanticRatio is not given. */
export const DEFAULT_QUERY_SEMANTIC_RATIO = 0.5;

/** Filters refused in the public scope: they would probe another tenant's private data (as GET /v1/assets refuses them). */
const PUBLIC_SCOPE_REFUSED = ['authorId', 'collectionIds', 'parentId'];

export type AssetHit = AssetView & { teamId: string; nsfw: string[]; score: number };

/**
 * POST /v1/search/assets: full-text, image similarity or both (hybrid), over
 * the project's assets or, with `public: true`, every organisation's public
 * ones. Everything is validated before anything is read; nothing is written
 * (except a missing embedding of a reference asset, filled as
 * withEmbedding=true would: derived data, docs/assets.md).
 */
@Injectable()
export class SearchAssetsService {
  constructor(
    private readonly scopes: TenantScopes,
    private readonly assets: AssetRepository,
    private readonly embeddings: AssetEmbeddings,
    private readonly repository: SearchAssetsRepository,
    private readonly presenter: AssetPresenter,
    private readonly searchModel: SearchModel,
  ) {}

  async execute(principal: Principal, projectId: string | undefined, original: string | undefined, body: SearchBody): Promise<{ hits: AssetHit[] } & SearchPageFields> {
    const errors: FieldError[] = [];
    const fail = (error: FieldError) => errors.push(error);
    const query = body.query?.trim() ? body.query.trim() : undefined;
    const like = body.image !== undefined ? [body.image] : (body.images?.like ?? []);
    const unlike = body.image !== undefined ? [] : (body.images?.unlike ?? []);
    if (body.image !== undefined && body.images !== undefined) fail({ field: 'images', messages: ['image and images cannot be used together'] });
    if (body.images !== undefined && like.length + unlike.length === 0) fail({ field: 'images', messages: ['images must list at least one image in like or unlike'] });
    if (query === undefined && body.filter === undefined && like.length + unlike.length === 0) {
      fail({ field: 'query', messages: ['at least one of query, filter, image or images must have a value'] });
    }
    const paging = searchPaging(body, fail);
    const sort = searchSort(body.sortBy, ['createdAt', 'updatedAt'], fail);
    if (errors.length) throw ApiError.validation(errors);

    const conditions: FilterCondition[] = body.filter !== undefined ? parseFilter(body.filter, ASSET_FILTER_SPEC) : [];
    const publicScope = body.public === true;
    if (publicScope) {
      for (const c of conditions) {
        if (PUBLIC_SCOPE_REFUSED.includes(c.attribute)) {
          fail({ field: 'filter', messages: [`filter: ${c.attribute} is not available with public: true (every organisation's public assets)`] });
        }
      }
      if (errors.length) throw ApiError.validation(errors);
    }

    const viewer = (await this.scopes.resolve(principal, projectId)).projectId;
    const vector = like.length + unlike.length ? await this.vectorOf(viewer, body.image !== undefined ? 'image' : 'images', like, unlike) : undefined;
    const semantic = query !== undefined ? await this.semantic(query, body.querySemanticRatio) : undefined;
    const { rows, total } = await this.repository.search({
      semantic,
      scope: publicScope ? { kind: 'public' } : { kind: 'project', projectId: viewer },
      text: query,
      vector,
      ratio: body.imageSemanticRatio ?? DEFAULT_SEMANTIC_RATIO,
      conditions,
      sort: sort as { attribute: 'createdAt' | 'updatedAt'; direction: 'asc' | 'desc' }[],
      offset: paging.offset,
      limit: paging.limit,
      countLimit: countLimit(paging),
    });
    const views = await this.presenter.views(rows, { viewer, original: flag(original) });
    const hits = views.map((view, i) => ({ ...view, teamId: rows[i].teamId, nsfw: [], score: rows[i].score }));
    return { hits, ...pageFields(paging, total) };
  }

  /**
   * Text-to-image: the query text embedded by the search model (when one is configured and
   * querySemanticRatio is not 0). A model that cannot answer makes the search a 503 naming it (with
   * Retry-After), not a quieter full-text answer: the caller asked for a ranking the text alone
   * cannot give, and `querySemanticRatio: 0` asks for the text alone.
   */
  private async semantic(query: string, ratio: number | undefined): Promise<SearchCriteria['semantic']> {
    const model = this.searchModel.model;
    const q = ratio ?? DEFAULT_QUERY_SEMANTIC_RATIO;
    if (!model || q <= 0) return undefined;
    try {
      return { vector: await this.searchModel.embedQuery(query), model, ratio: q };
    } catch (error) {
      const retryAfterMs = error instanceof SearchModelError ? error.retryAfterMs : undefined;
      // The cause (the backend's words, its address) goes to the log with the 503 (the error filter), not to the caller.
      throw new ApiError(
        HttpStatus.SERVICE_UNAVAILABLE,
        ApiErrorCode.serviceUnavailable,
        `the search model ${model} cannot embed the query now; try again later, or send querySemanticRatio: 0 for full-text search alone`,
        { model, retryAfter: Math.max(5, Math.ceil((retryAfterMs ?? 0) / 1000)) },
        { cause: error },
      );
    }
  }

  /** The query vector of the reference images (asset ids the caller may read, or data URLs). */
  private async vectorOf(projectId: string, field: 'image' | 'images', like: readonly string[], unlike: readonly string[]): Promise<number[]> {
    const embed = async (value: string, name: string): Promise<number[]> => {
      if (ASSET_ID_PATTERN.test(value)) {
        const row = await this.assets.findReadable({ kind: 'project', projectId }, value, { withEmbedding: true });
        // Another tenant's private asset reads as missing: whether it exists is not the caller's to learn.
        if (!row) throw ApiError.validation([{ field: name, messages: [`${name}: asset ${value} not found`] }]);
        const filled = await this.embeddings.ensure(row);
        if (!filled.embedding?.length) throw ApiError.validation([{ field: name, messages: [`${name}: asset ${value} has no image embedding (not an image, or unreadable)`] }]);
        return filled.embedding;
      }
      if (!value.startsWith('data:')) throw ApiError.validation([{ field: name, messages: [`${name} must be an asset id (asset_…) or a data URL`] }]);
      const embedding = await tryImageEmbedding(decodeBase64Payload(value, name, LIMITS.maxImageBytes));
      if (!embedding) throw ApiError.validation([{ field: name, messages: [`${name} is not a readable image`] }]);
      return embedding;
    };
    const names = (list: readonly string[], key: string) => list.map((_, i) => (field === 'image' ? 'image' : `images.${key}[${i}]`));
    const likeNames = names(like, 'like');
    const unlikeNames = names(unlike, 'unlike');
    const likeVectors = await Promise.all(like.map((v, i) => embed(v, likeNames[i])));
    const unlikeVectors = await Promise.all(unlike.map((v, i) => embed(v, unlikeNames[i])));
    const vector = referenceVector(likeVectors, unlikeVectors);
    if (!vector) throw ApiError.validation([{ field, messages: [`${field}: the like and unlike images cancel out (no direction to search)`] }]);
    return vector;
  }
}
