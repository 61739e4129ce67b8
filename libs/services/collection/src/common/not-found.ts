import { ApiError } from '@genasset/http';

/** 404 for a collection that is missing or another project's (its existence is not revealed). */
export function collectionNotFound(id: string): ApiError {
  return ApiError.notFound(`collection ${id} not found`, id);
}

/**
 * 404 naming every id that is not an item of the caller's project, e.g.
 * "assets asset_a, asset_b not found", with the ids in `infos` for programs.
 */
export function itemsNotFound(kind: 'asset' | 'model', ids: readonly string[]): ApiError {
  const noun = ids.length === 1 ? kind : `${kind}s`;
  return new ApiError(404, 'not_found', `${noun} ${ids.join(', ')} not found`, { [`${kind}Ids`]: [...ids] });
}
