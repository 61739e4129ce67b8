import { Injectable } from '@nestjs/common';
import type { Principal } from '@genasset/auth';
import { ApiError, type FieldError } from '@genasset/http';
import { AssetPresenter, flag, type AssetView } from '../core/asset-presenter';
import { isAssetType } from '../core/asset-types';
import { paginationToken } from '../core/pagination-token';
import { TenantScopes } from '../core/tenant-scope';
import { AssetListRepository, type ListCriteria } from './asset-list.repository';
import { PROJECT_ONLY_FILTERS, PUBLIC_SCOPE_REFUSED, type ListAssetsQuery, type PublicAssetListQuery } from './dto/list-assets.query';

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
    // The public scope (public access, or privacy=public with any key) spans every
    // organisation: a filter on one project's collection, lineage, author or
    // inference would let anyone probe another tenant's private data through it
    // (e.g. which public assets sit in a private collection). Refused alike for
    // every caller; a project filters its own assets without privacy=public.
    const publicScope = publicAccess || q.privacy === 'public';
    if (publicAccess) {
      for (const name of PROJECT_ONLY_FILTERS) {
        if (q[name] !== undefined) fail(name, `${name} is not available with public access (public assets only)`);
      }
      if (q.privacy !== undefined && q.privacy !== 'public') fail('privacy', 'public access lists public assets only: privacy can only be public');
    } else if (publicScope) {
      for (const name of PUBLIC_SCOPE_REFUSED) {
        if (q[name] !== undefined) {
          fail(name, `${name} is not available with the public scope (privacy=public lists every organisation's public assets): filter your project's assets without privacy=public`);
        }
      }
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
    if (q.tags !== undefined && !publicScope) {
      fail('tags', 'tags searches public assets of every organisation: add privacy=public');
    }
    if (q.tags !== undefined && tags.length === 0) fail('tags', 'tags must list at least one tag');
    if (tags.length > MAX_TAGS) fail('tags', `tags can list at most ${MAX_TAGS} tags`);
    if (errors.length) throw ApiError.validation(errors);

    const order = `${sortBy}:${direction}`;
    const cursor = q.paginationToken ? paginationToken.decode(q.paginationToken, order) : undefined;
    const pageSize = q.pageSize ?? DEFAULT_PAGE_SIZE;
    const viewer = await this.viewer(principal, q.projectId, publicScope);
    const scope: ListCriteria['scope'] = publicScope
      ? { kind: 'public' }
      : {
          kind: 'project',
          projectId: viewer!,
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
    const assets = await this.presenter.views(page, { original: flag(q.originalAssets), viewer });
    return {
      assets,
      ...(rows.length > pageSize && last
        ? { nextPaginationToken: paginationToken.encode({ order, at: last[sortBy].toISOString(), id: last.id }) }
        : {}),
    };
  }

  /**
   * The caller's project (who sees collection ids). The project scope needs
   * one; the public scope none: there a key's own project (or the one a
   * team-level key names) is the viewer, and public access has none.
   */
  private async viewer(principal: Principal, projectId: string | undefined, publicScope: boolean): Promise<string | null> {
    if (principal.kind === 'public') return null;
    if (!publicScope || projectId !== undefined) return (await this.scopes.resolve(principal, projectId)).projectId;
    return principal.projectId;
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
