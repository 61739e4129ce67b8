import { buildListQuery, type ListCriteria } from './asset-list.repository';

const base: ListCriteria = { scope: { kind: 'project', projectId: 'proj_1' }, sortBy: 'createdAt', direction: 'desc', limit: 51 };
const flat = (c: ListCriteria) => buildListQuery(c).text.replace(/\s+/g, ' ');

describe('buildListQuery', () => {
  it('scopes to the project and orders by (sort column, id)', () => {
    const q = buildListQuery(base);
    expect(flat(base)).toMatch(/WHERE a\.project_id = \$1 ORDER BY a\.created_at DESC, a\.id DESC LIMIT \$2/);
    expect(q.values).toEqual(['proj_1', 51]);
  });

  it('public scope uses a literal so the partial indexes apply', () => {
    expect(flat({ ...base, scope: { kind: 'public' } })).toMatch(/WHERE a\.privacy = 'public' ORDER BY/);
  });

  it('keyset: a row comparison in the list direction', () => {
    const cursor = { at: new Date('2025-01-01T00:00:00Z'), id: 'asset_1' };
    expect(flat({ ...base, cursor })).toMatch(/\(a\.created_at, a\.id\) < \(\$2::timestamptz, \$3\)/);
    expect(flat({ ...base, cursor, direction: 'asc', sortBy: 'updatedAt' })).toMatch(/\(a\.updated_at, a\.id\) > \(\$2::timestamptz, \$3\)/);
  });

  it('several types: one limited branch per type under UNION ALL', () => {
    const text = flat({ ...base, types: ['a', 'b', 'c'] });
    expect(text.match(/UNION ALL/g)).toHaveLength(2);
    expect(text).toMatch(/ORDER BY u\."createdAt" DESC, u\.id DESC LIMIT/);
  });

  it('never interpolates values', () => {
    const q = buildListQuery({ ...base, authorId: "x' OR 1=1 --", tags: ["'"], collectionId: 'c' });
    expect(q.text).not.toContain("x'");
    expect(q.values).toContain("x' OR 1=1 --");
  });
});
