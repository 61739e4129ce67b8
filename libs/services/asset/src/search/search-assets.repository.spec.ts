import { buildSearchQueries, type SearchCriteria } from './search-assets.repository';

const base: SearchCriteria = { scope: { kind: 'project', projectId: 'proj_1' }, text: 'red square', ratio: 0.5, conditions: [], sort: [], offset: 0, limit: 20 };
const flat = (c: SearchCriteria) => buildSearchQueries(c).page.text.replace(/\s+/g, ' ');
const semantic = (ratio: number) => ({ vector: [0.6, 0.8], model: "clip'vit", ratio });

describe('buildSearchQueries: text to image (the search model)', () => {
  it('without the model: the text alone, no model column read (as before text-to-image)', () => {
    expect(flat(base)).not.toMatch(/model_embedding/);
    expect(flat(base)).toMatch(/ts_rank_cd\(a\.search_text, websearch_to_tsquery\('english', \$1\), 32\) AS score FROM assets\.assets a WHERE a\.project_id = \$2 AND a\.search_text @@/);
  });

  it('with it: (1 - q)·text + q·cosine over the rows of that model, matching the words or having such a vector', () => {
    const { page, count } = buildSearchQueries({ ...base, semantic: semantic(0.25) });
    const text = page.text.replace(/\s+/g, ' ');
    expect(text).toMatch(/\(\$\d+::float8 \* ts_rank_cd\(.*\) \+ \$\d+::float8 \* CASE WHEN \(a\.model_embedding_model = \$\d+ AND a\.model_embedding IS NOT NULL\) THEN greatest\(0, \(SELECT sum\(x \* y\) FROM unnest\(a\.model_embedding, \$\d+::real\[\]\)/);
    expect(text).toMatch(/\(a\.search_text @@ websearch_to_tsquery\('english', \$\d+\) OR \(a\.model_embedding_model = \$\d+ AND a\.model_embedding IS NOT NULL\)\)/);
    expect(page.values).toEqual(expect.arrayContaining([0.75, 0.25, "clip'vit", [0.6, 0.8]]));
    // The model name is a parameter, never spliced into the statement; the count has the same conditions.
    expect(text).not.toContain('clip');
    expect(count.text.replace(/\s+/g, ' ')).toMatch(/OR \(a\.model_embedding_model = \$\d+ AND a\.model_embedding IS NOT NULL\)/);
  });

  it('where pgvector is installed, it computes the dot product (negated inner product, no dimension needed)', () => {
    const text = buildSearchQueries({ ...base, semantic: semantic(0.5) }, undefined, { pgvectorSchema: 'assets' }).page.text.replace(/\s+/g, ' ');
    expect(text).toMatch(/greatest\(0, -\(a\.model_embedding::"assets"\.vector OPERATOR\("assets"\.<#>\) \$\d+::real\[\]::"assets"\.vector\)\)/);
    expect(text).not.toMatch(/unnest\(a\.model_embedding/);
  });

  it('q = 1: the similarity alone', () => {
    expect(flat({ ...base, semantic: semantic(1) })).toMatch(/SELECT .*, CASE WHEN \(a\.model_embedding_model = \$\d+ AND a\.model_embedding IS NOT NULL\) THEN .* AS score FROM/);
  });

  it('with images too: the query score takes the text score\'s place in (1 - r)·query + r·image, on the exact scan', () => {
    const c = { ...base, vector: [1, 0], semantic: semantic(0.5) };
    const text = buildSearchQueries(c, { vectorSchema: 'assets' }).page.text.replace(/\s+/g, ' ');
    expect(text).toMatch(/WHERE .*\(\(a\.search_text @@ .* OR \(a\.model_embedding_model = \$\d+ AND a\.model_embedding IS NOT NULL\)\) OR cardinality\(a\.embedding\) = 1024\)/);
  });

  it("with the model's index: candidates are the nearest by its expression (literals, as its partial predicate) plus the text matches", () => {
    const text = buildSearchQueries({ ...base, semantic: semantic(0.5) }, { vectorSchema: 'assets' }, { pgvectorSchema: 'assets' }).page.text.replace(/\s+/g, ' ');
    expect(text).toContain(
      `WHERE a.id IN ((SELECT a.id FROM assets.assets a WHERE a.project_id = $6 AND (a.model_embedding_model = 'clip''vit' AND cardinality(a.model_embedding) = 2) ORDER BY a.model_embedding::"assets".vector(2) OPERATOR("assets".<=>) $7::real[]::"assets".vector(2) LIMIT $8) UNION (SELECT a.id FROM assets.assets a WHERE a.project_id = $9 AND a.search_text @@ websearch_to_tsquery('english', $10)))`,
    );
  });
});
