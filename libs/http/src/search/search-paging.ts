import { type FieldError } from '../errors/api-error';
import type { SearchBody, SearchPageFields } from './search.dto';

export const DEFAULT_SEARCH_LIMIT = 20;
/** How many matches past the requested page offset mode counts before it stops (countLimit). */
export const COUNT_LOOKAHEAD = 1000;

/** offset/limit or page/hitsPerPage (upstream: each pair "must be used with" its partner, the two modes exclusive). */
export interface SearchPaging {
  mode: 'offset' | 'page';
  offset: number;
  limit: number;
  page?: number;
}

export function searchPaging(body: SearchBody, fail: (error: FieldError) => void): SearchPaging {
  const pageMode = body.page !== undefined || body.hitsPerPage !== undefined;
  if (pageMode && (body.offset !== undefined || body.limit !== undefined)) {
    fail({ field: body.page !== undefined ? 'page' : 'hitsPerPage', messages: ['page/hitsPerPage and offset/limit are two paging modes: use one'] });
  }
  if (!pageMode) return { mode: 'offset', offset: body.offset ?? 0, limit: body.limit ?? DEFAULT_SEARCH_LIMIT };
  const hitsPerPage = body.hitsPerPage ?? DEFAULT_SEARCH_LIMIT;
  const page = body.page ?? 1;
  return { mode: 'page', offset: (page - 1) * hitsPerPage, limit: hitsPerPage, page };
}

/**
 * How far a search counts its matches. Offset mode answers upstream's
 * `estimatedTotalHits` ("Estimated total number of hits"): counted up to the
 * end of the requested page plus COUNT_LOOKAHEAD — exact below that, else that
 * number (a lower bound, so "is there a next page" is always answered right) —
 * so a broad match (every image of the project, in an image search) is not
 * counted whole on every call. Page mode answers `totalHits`, "Exhaustive
 * total number of matches": undefined, an exact count.
 */
export function countLimit(paging: SearchPaging): number | undefined {
  return paging.mode === 'offset' ? paging.offset + paging.limit + COUNT_LOOKAHEAD : undefined;
}

/** The paging fields of the answer for `total` matches. */
export function pageFields(paging: SearchPaging, total: number): SearchPageFields {
  if (paging.mode === 'offset') return { offset: paging.offset, limit: paging.limit, estimatedTotalHits: total };
  return {
    offset: paging.offset,
    limit: paging.limit,
    page: paging.page,
    hitsPerPage: paging.limit,
    totalHits: total,
    totalPages: Math.ceil(total / paging.limit),
  };
}

/** sortBy ['createdAt:desc'] over the sortable attributes; [] = by score. */
export function searchSort(sortBy: readonly string[] | undefined, sortable: readonly string[], fail: (error: FieldError) => void): { attribute: string; direction: 'asc' | 'desc' }[] {
  const out: { attribute: string; direction: 'asc' | 'desc' }[] = [];
  for (const entry of sortBy ?? []) {
    const [attribute, direction, extra] = entry.split(':');
    if (extra !== undefined || !sortable.includes(attribute) || (direction !== 'asc' && direction !== 'desc')) {
      fail({ field: 'sortBy', messages: [`sortBy ${JSON.stringify(entry)} is not <attribute>:asc|desc over ${sortable.join(', ')}`] });
      continue;
    }
    out.push({ attribute, direction });
  }
  return out;
}
