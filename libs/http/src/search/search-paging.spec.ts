import { COUNT_LOOKAHEAD, countLimit, pageFields, searchPaging } from './search-paging';

describe('search paging: how far the matches are counted', () => {
  const paging = (body: Parameters<typeof searchPaging>[0]) => searchPaging(body, () => undefined);

  it('offset mode (estimatedTotalHits): up to the end of the page plus the lookahead', () => {
    expect(countLimit(paging({}))).toBe(20 + COUNT_LOOKAHEAD);
    expect(countLimit(paging({ offset: 5000, limit: 100 }))).toBe(5100 + COUNT_LOOKAHEAD);
  });

  it('page mode (totalHits, totalPages): exact', () => {
    expect(countLimit(paging({ page: 3, hitsPerPage: 50 }))).toBeUndefined();
    expect(pageFields(paging({ page: 3, hitsPerPage: 50 }), 2001)).toMatchObject({ totalHits: 2001, totalPages: 41 });
  });
});
