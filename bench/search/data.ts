/** bench/search's data: the rows both databases (PostgreSQL, PGlite) are seeded with. */
import type { DatabaseConnection } from '@genasset/persistence';

export const TOTAL = Number(process.env.BENCH_ASSETS ?? 100_000);
/** Share of the rows in the searched project (the others share the table and its indexes). */
export const BENCH_SHARE = 0.25;

/** The search model the PGlite part's text-to-image case stands in for, and its dimension (a CLIP ViT-B's). */
export const BENCH_MODEL = 'bench-clip';
export const BENCH_MODEL_DIMS = 512;

export const WORDS = ['lighthouse', 'forest', 'castle', 'robot', 'dragon', 'city', 'ocean', 'desert', 'portrait', 'cat', 'mountain', 'ship', 'garden', 'neon', 'winter', 'temple'];
export const STYLES = ['watercolor', 'photo', 'pixel art', 'oil painting', 'sketch', 'isometric', 'cinematic', 'low poly'];

/**
 * 100,000 rows in SQL: names, prompts and tags drawn from small vocabularies
 * (so a word matches a realistic few percent of rows), creation times over a
 * year. Rows of the searched project get a random unit-length 1024-number
 * embedding (the other projects' rows none: a similarity search reads only
 * the caller's project, and 400 MB of vectors would only slow the seeding).
 */
export async function seed(db: DatabaseConnection, projects: { teamId: string; projectId: string }[]): Promise<void> {
  const chunk = 20_000;
  for (let from = 1; from <= TOTAL; from += chunk) {
    const to = Math.min(TOTAL, from + chunk - 1);
    await db.query(
      `INSERT INTO assets.assets (id, team_id, project_id, author_id, type, kind, mime_type, privacy, name, tags,
                                  storage_key, properties, metadata, embedding, created_at, updated_at)
       SELECT 'asset_' || upper(lpad(to_hex(g), 26, '0')), p.team_id, p.project_id, 'key_' || (g % 7),
              CASE WHEN g % 3 = 0 THEN 'uploaded' ELSE 'inference-txt2img' END, 'image', 'image/png',
              CASE WHEN g % 20 = 0 THEN 'public' ELSE 'private' END,
              initcap(($3::text[])[1 + (g * 5) % array_length($3::text[], 1)]) || ' ' || g,
              ARRAY[($3::text[])[1 + (g * 7) % array_length($3::text[], 1)]],
              'assets/' || p.project_id || '/' || g || '.png', '{"width":512,"height":512,"size":1000,"format":"png"}',
              jsonb_build_object('prompt', 'a ' || ($4::text[])[1 + g % array_length($4::text[], 1)] || ' ' ||
                ($3::text[])[1 + g % array_length($3::text[], 1)] || ' near a ' || ($3::text[])[1 + (g / 16) % array_length($3::text[], 1)]),
              CASE WHEN p.ord = 0 THEN (SELECT array_agg(x / norm) FROM (SELECT x, sqrt(sum(x * x) OVER ()) AS norm
                                        FROM (SELECT random()::real - 0.5 + g * 0 AS x FROM generate_series(1, 1024)) r) n)
                   ELSE '{}'::real[] END,
              now() - (g % 365) * interval '1 day', now() - (g % 365) * interval '1 day'
         FROM generate_series($1::int, $2::int) g
         JOIN (SELECT ord - 1 AS ord, team_id, project_id FROM unnest($5::text[], $6::text[]) WITH ORDINALITY AS u(team_id, project_id, ord)) p
           ON p.ord = CASE WHEN g % 100 < ${Math.round(BENCH_SHARE * 100)} THEN 0 ELSE 1 + g % ${projects.length - 1} END`,
      [from, to, WORDS, STYLES, projects.map((p) => p.teamId), projects.map((p) => p.projectId)],
    );
  }
  await db.query('VACUUM ANALYZE assets.assets');
}

/**
 * The search model's vectors (text to image) of the searched project's rows: random unit-length
 * BENCH_MODEL_DIMS-number vectors of BENCH_MODEL, as asset-service's embedder would store them.
 */
export async function seedModelEmbeddings(db: DatabaseConnection, projectId: string): Promise<number> {
  const ids = await db.query<{ id: string }>(`SELECT id FROM assets.assets WHERE project_id = $1 AND kind = 'image' AND model_embedding IS NULL`, [projectId]);
  const chunk = 2_000;
  for (let from = 0; from < ids.length; from += chunk) {
    await db.query(
      `UPDATE assets.assets a SET model_embedding = v.vector, model_embedding_model = $3
         FROM (SELECT id, (SELECT array_agg(x / norm) FROM (SELECT x, sqrt(sum(x * x) OVER ()) AS norm
                              FROM (SELECT random()::real - 0.5 + length(id) * 0 AS x FROM generate_series(1, $2::int)) r) n) AS vector
                 FROM unnest($1::text[]) AS u(id)) v
        WHERE a.id = v.id`,
      [ids.slice(from, from + chunk).map((r) => r.id), BENCH_MODEL_DIMS, BENCH_MODEL],
    );
  }
  await db.query('VACUUM ANALYZE assets.assets');
  return ids.length;
}
