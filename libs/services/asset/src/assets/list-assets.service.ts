import { Injectable } from '@nestjs/common';
import type { Principal } from '@genasset/auth';
import { ApiError, type FieldError } from '@genasset/http';
import { AssetPresenter, flag, type AssetView } from '../core/asset-presenter';
import { isAssetType } from '../core/asset-types';
import { paginationToken } from '../core/pagination-token';
import { TenantScopes } from '../core/tenant-scope';
import { AssetListRepository, type ListCriteria } from './asset-list.repository';
import { PROJECT_ONLY_FILTERS, type ListAssetsQuery, type PublicAssetListQuery } from './dto/list-assets.query';

export const DEFAULT_PAGE_SIZE = 50;
const MAX_TAGS = 20;

export interface AssetPage {
  assets: AssetView[];
  nextPaginationToken?: string;
}

/**
 * GET /v1/assets (credentials or public access) and the deprecated
 * GET /v1/assets/public. Every rule of the spec's list parameters is checked
 * here, each breach answered with a 400 naming the parameter.
 */
@Injectable()
export class ListAssetsService {
  constructor(
    private readonly scopes: TenantScopes,
    private readonly repository: AssetListRepository,
    private readonly presenter: AssetPresenter,
  ) {}

  async execute(principal: Principal, query: ListAssetsQuery | PublicAssetListQuery): Promise<AssetPage> {
    const q = query as ListAssetsQuery;
    const errors: FieldError[] = [];
    const fail = (field: string, message: string) => errors.push({ field, messages: [message] });

    const publicAccess = principal.kind === 'public';
    if (publicAccess) {
      for (const name of PROJECT_ONLY_FILTERS) {
        if (q[name] !== undefined) fail(name, `${name} is not available with public access (public assets only)`);
      }
      if (q.privacy !== undefined && q.privacy !== 'public') fail('privacy', 'public access lists public assets only: privacy can only be public');
    }

    if (q.type !== undefined && q.types !== undefined) fail('types', 'type and types cannot be used together');
    const types = q.type !== undefined ? [q.type] : parseList(q.types);
    for (const t of types) if (!isAssetType(t)) fail('types', `types contains ${JSON.stringify(t)}, which is not an asset type of the spec`);
    if (q.types !== undefined && types.length === 0) fail('types', 'types must list at least one asset type');

    const sortBy = q.sortBy ?? 'createdAt';
    const direction = q.sortDirection ?? 'desc';
    for (const [name, needs] of [
      ['createdBefore', 'createdAt'],
      ['createdAfter', 'createdAt'],
      ['updatedBefore', 'updatedAt'],
      ['updatedAfter', 'updatedAt'],
    ] as const) {
      if (q[name] !== undefined && q.sortBy !== needs) fail(name, `${name} requires sortBy=${needs}`);
    }

    const tags = parseList(q.tags);
    const publicScope = publicAccess || q.privacy === 'public';
    if (q.tags !== undefined && !publicScope) {
      fail('tags', 'tags searches public assets of every organisation: add privacy=public');
    }
    if (q.tags !== undefined && tags.length === 0) fail('tags', 'tags must list at least one tag');
    if (tags.length > MAX_TAGS) fail('tags', `tags can list at most ${MAX_TAGS} tags`);
    if (errors.length) throw ApiError.validation(errors);

    const order = `${sortBy}:${direction}`;
    const cursor = q.paginationToken ? paginationToken.decode(q.paginationToken, order) : undefined;
    const pageSize = q.pageSize ?? DEFAULT_PAGE_SIZE;
    const scope: ListCriteria['scope'] = publicScope
      ? { kind: 'public' }
      : {
          kind: 'project',
          projectId: (await this.scopes.resolve(principal, q.projectId)).projectId,
          ...(q.privacy ? { privacy: q.privacy as 'private' | 'unlisted' } : {}),
        };
    const bounds = sortBy === 'createdAt' ? [q.createdAfter, q.createdBefore] : [q.updatedAfter, q.updatedBefore];

    const rows = await this.repository.list({
      scope,
      types: [...new Set(types)],
      inferenceId: q.inferenceId,
      modelId: q.modelId,
      parentId: q.parentAssetId,
      rootParentId: q.rootAssetId,
      authorId: q.authorId,
      collectionId: q.collectionId,
      tags: [...new Set(tags)],
      sortBy,
      direction,
      after: bounds[0] !== undefined ? new Date(bounds[0]) : undefined,
      before: bounds[1] !== undefined ? new Date(bounds[1]) : undefined,
      cursor: cursor ? { at: new Date(cursor.at), id: cursor.id } : undefined,
      limit: pageSize + 1,
    });
    const page = rows.slice(0, pageSize);
    const last = page[page.length - 1];
    const assets = await this.presenter.views(page, { original: flag(q.originalAssets) });
    return {
      assets,
      ...(rows.length > pageSize && last
        ? { nextPaginationToken: paginationToken.encode({ order, at: last[sortBy].toISOString(), id: last.id }) }
        : {}),
    };
  }
}

/** `a,b, c` → ['a', 'b', 'c'] (form style, not exploded). */
function parseList(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
