import { migrate, PostgresConnection } from '@genasset/persistence';
import { createTestDatabase, type TestDatabase } from '@genasset/testing';
import { ASSET_SCHEMA } from '../src';
import { buildListQuery, type ListCriteria } from '../src/assets/asset-list.repository';
import { assetTagCountsQuery } from '../src/tags/tags.repository';

/**
 * The list query plans, on 200,000 assets in 200 projects: every filter
 * enters through its index — read in (sort key, id) order and stopped after
 * one page, or, when few rows match, fetched by bitmap and sorted — never a
 * sequential scan, and always a small plan cost (a scan of the table costs
 * thousands). A regression here is a list that gets slower as the table grows.
 */
describe('list query plans at scale', () => {
  let database: TestDatabase;
  let db: PostgresConnection;

  beforeAll(async () => {
    database = await createTestDatabase('asset-plans');
    db = new PostgresConnection(database.url, { poolSize: 2 });
    await migrate(db, ASSET_SCHEMA);
    await db.query(`
      INSERT INTO assets.assets (id, team_id, project_id, author_id, type, kind, mime_type, privacy, tags, collection_ids,
        parent_id, root_parent_id, inference_id, model_id, storage_key, properties, created_at, updated_at)
      SELECT 'asset_' || lpad(g::text, 26, '0'), 'team_' || (g % 200), 'proj_' || (g % 200), 'key_' || (g % 50),
             (ARRAY['uploaded','canvas','inference-txt2img','texture-albedo','upscale'])[1 + g % 5], 'image', 'image/png',
             CASE WHEN g % 10 = 0 THEN 'public' ELSE 'private' END,
             CASE WHEN g % 10 = 0 THEN ARRAY['tag' || (g % 97)] ELSE '{}' END,
             CASE WHEN g % 7 = 0 THEN ARRAY['col_' || (g % 300)] ELSE '{}' END,
             CASE WHEN g % 3 = 0 THEN 'asset_p' || (g % 20000) END,
             CASE WHEN g % 3 = 0 THEN 'asset_r' || (g % 5000) END,
             CASE WHEN g % 2 = 0 THEN 'inf_' || (g / 8) END,
             CASE WHEN g % 2 = 0 THEN 'model_' || (g % 40) END,
             'k', '{}', now() - (g || ' seconds')::interval, now() - ((g * 7919 % 200000) || ' seconds')::interval
        FROM generate_series(1, 200000) AS g`);
    await db.query('ANALYZE assets.assets');
  });

  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  const base: ListCriteria = { scope: { kind: 'project', projectId: 'proj_42' }, sortBy: 'createdAt', direction: 'desc', limit: 51 };

  async function plan(criteria: ListCriteria): Promise<string> {
    const query = buildListQuery(criteria);
    const rows = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${query.text}`, query.values as unknown[]);
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  }

  /** Total estimated cost of the plan's top node. */
  const cost = (text: string) => Number(/cost=[\d.]+\.\.([\d.]+)/.exec(text)![1]);

  const cursor = { at: new Date(Date.now() - 50_000_000), id: 'asset_00000000000000000000000500' };

  it.each<[string, Partial<ListCriteria>, string]>([
    ['project, default sort', {}, 'assets_project_id_created_at_id_idx'],
    ['project, ascending, after a cursor', { direction: 'asc', cursor }, 'assets_project_id_created_at_id_idx'],
    ['project, createdAt bounds', { after: new Date(Date.now() - 9e7), before: new Date() }, 'assets_project_id_created_at_id_idx'],
    ['project, sortBy=updatedAt', { sortBy: 'updatedAt' }, 'assets_project_id_updated_at_id_idx'],
    ['project, one type', { types: ['canvas'] }, 'assets_project_id_type_created_at_id_idx'],
    ['inferenceId', { inferenceId: 'inf_100' }, 'assets_inference_idx'],
    ['public, default sort', { scope: { kind: 'public' } }, 'assets_public_created_idx'],
    ['public, sortBy=updatedAt after a cursor', { scope: { kind: 'public' }, sortBy: 'updatedAt', cursor }, 'assets_public_updated_idx'],
    ['public, modelId', { scope: { kind: 'public' }, modelId: 'model_10' }, 'assets_public_model_idx'],
  ])('%s reads one index range in order', async (_name, extra, index) => {
    const text = await plan({ ...base, ...extra });
    expect(text).toContain(index);
    expect(text).not.toMatch(/Seq Scan/);
    expect(text).not.toMatch(/\bSort\b/);
    expect(cost(text)).toBeLessThan(500);
  });

  it.each<[string, Partial<ListCriteria>, RegExp]>([
    ['project, authorId', { authorId: 'key_7' }, /assets_project_id_author_id_created_at_id_idx/],
    ['project, modelId', { modelId: 'model_2' }, /assets_project_model_idx/],
    ['parentAssetId', { parentId: 'asset_p300' }, /assets_parent_idx/],
    ['rootAssetId', { rootParentId: 'asset_r300' }, /assets_root_parent_idx/],
    // 'upscale' is a fifth of the public rows: walking the public index and filtering is as cheap.
    ['public, one type', { scope: { kind: 'public' }, types: ['upscale'] }, /assets_public_type_idx|assets_public_created_idx/],
  ])('%s enters through its index (few matches: fetched and sorted)', async (_name, extra, index) => {
    const text = await plan({ ...base, ...extra });
    expect(text).toMatch(index);
    expect(text).not.toMatch(/Seq Scan/);
    expect(cost(text)).toBeLessThan(500);
  });

  it('several types: one ordered range per type, merged without sorting the rows', async () => {
    const text = await plan({ ...base, types: ['canvas', 'upscale', 'texture-albedo'] });
    expect(text).toContain('Merge Append');
    expect(text).toContain('assets_project_id_type_created_at_id_idx');
    expect(text).not.toMatch(/Seq Scan/);
    expect(cost(text)).toBeLessThan(500);
  });

  it.each<[string, Partial<ListCriteria>, string]>([
    ['collectionId', { collectionId: 'col_14' }, 'assets_collection_ids_idx'],
    ['public tags', { scope: { kind: 'public' }, tags: ['tag5'] }, 'assets_public_tags_idx'],
  ])('%s uses its GIN index (bounded sets: a collection, a tag)', async (_name, extra, index) => {
    const text = await plan({ ...base, ...extra });
    expect(text).toMatch(new RegExp(`${index}|assets_project_id_created_at_id_idx|assets_public_created_idx`));
    expect(text).not.toMatch(/Seq Scan/);
    expect(cost(text)).toBeLessThan(2000);
  });

  it('GET /v1/tags: the asset tag counts of a project enter through a project index, never a sequential scan', async () => {
    for (const after of [undefined, 'tag5']) {
      const query = assetTagCountsQuery({ projectId: 'proj_40', teamId: 'team_40' }, after, 51);
      const rows = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${query.text}`, query.values);
      const text = rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(text).toMatch(/assets_project_id_\w+_idx/);
      expect(text).not.toMatch(/Seq Scan on assets/);
      expect(cost(text)).toBeLessThan(5000);
    }
  });
});
