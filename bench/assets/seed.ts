import type { PostgresConnection } from '@genasset/persistence';

/** Types the seeded assets get, with weights: uploads and txt2img dominate, as in a real library. */
const TYPES: [string, number][] = [
  ['uploaded', 30],
  ['inference-txt2img', 25],
  ['inference-img2img', 10],
  ['upscale', 8],
  ['canvas', 5],
  ['texture-albedo', 4],
  ['texture-normal', 4],
  ['segmentation-mask', 4],
  ['detection', 3],
  ['pixelization', 3],
  ['uploaded-video', 2],
  ['skybox-base-360', 2],
];

export interface SeedPlan {
  total: number;
  /** The bench's project and the others sharing the table. */
  projects: { teamId: string; projectId: string }[];
  /** Share of the rows in projects[0] (the one the bench lists). */
  benchShare: number;
}

/**
 * Writes `plan.total` asset rows straight in SQL (INSERT … SELECT
 * generate_series, 100,000 per statement), the way rows look after uploads
 * and generations: a type from a skewed mix, half with a web rendition,
 * realistic properties and metadata, a few tags, 5 % public, creation times
 * spread over a year. Then VACUUM ANALYZE, so plans are the ones a live
 * database would use.
 */
export async function seedAssets(
  db: PostgresConnection,
  plan: SeedPlan,
  log: (line: string) => void,
): Promise<void> {
  const weights = TYPES.flatMap(([type, weight]) => Array<string>(weight).fill(type));
  const chunk = 100_000;
  const others = plan.projects.slice(1);
  const started = Date.now();
  for (let from = 1; from <= plan.total; from += chunk) {
    const to = Math.min(plan.total, from + chunk - 1);
    await db.query(
      `INSERT INTO assets.assets (id, team_id, project_id, author_id, type, kind, mime_type, privacy, name, tags,
                                  parent_id, root_parent_id, inference_id, model_id, storage_key, rendition_key,
                                  properties, metadata, created_at, updated_at)
       SELECT 'asset_' || upper(lpad(to_hex(g), 26, '0')),
              p.team_id, p.project_id, 'key_' || (g % 7),
              t.type,
              CASE WHEN t.type = 'canvas' THEN 'json' WHEN t.type = 'uploaded-video' THEN 'video' ELSE 'image' END,
              CASE WHEN t.type = 'canvas' THEN 'application/json' WHEN t.type = 'uploaded-video' THEN 'video/mp4' ELSE 'image/png' END,
              CASE WHEN g % 20 = 0 THEN 'public' ELSE 'private' END,
              'image-' || g || '.png',
              CASE g % 4 WHEN 0 THEN '{}'::text[] WHEN 1 THEN ARRAY['landscape'] WHEN 2 THEN ARRAY['portrait', 'sci-fi'] ELSE ARRAY['texture', 'stone', 'pbr'] END,
              NULL, NULL,
              CASE WHEN t.type LIKE 'inference-%' THEN 'inf_' || (g / 4) END,
              CASE WHEN t.type LIKE 'inference-%' THEN 'model_' || (g % 50) END,
              'assets/' || p.project_id || '/asset_' || g || '/original-abcdefgh.png',
              CASE WHEN g % 2 = 0 THEN 'assets/' || p.project_id || '/asset_' || g || '/web-abcdefgh.webp' END,
              jsonb_build_object('width', 1024, 'height', 768, 'size', 1000000 + g % 500000, 'format', 'png', 'hasAlpha', g % 3 = 0),
              CASE WHEN t.type LIKE 'inference-%'
                   THEN jsonb_build_object('prompt', 'a castle on a hill at dusk, volumetric light, highly detailed ' || g, 'seed', g, 'numInferenceSteps', 30, 'guidance', 7.5)
                   ELSE '{}'::jsonb END,
              c.at, c.at
         FROM generate_series($1::int, $2::int) AS g
         CROSS JOIN LATERAL (SELECT ($3::text[])[1 + (hashint4(g) & 2147483647) % array_length($3::text[], 1)] AS type) t
         CROSS JOIN LATERAL (SELECT timestamptz '2025-01-01' + (g * interval '31 seconds') AS at) c
         CROSS JOIN LATERAL (
           SELECT CASE WHEN (hashint4(g * 7) & 2147483647) % 1000 < $4::int THEN $5::text ELSE ($6::text[])[1 + g % array_length($6::text[], 1)] END AS project_id
         ) pid
         JOIN (SELECT unnest($7::text[]) AS project_id, unnest($8::text[]) AS team_id) p ON p.project_id = pid.project_id`,
      [
        from,
        to,
        weights,
        Math.round(plan.benchShare * 1000),
        plan.projects[0].projectId,
        others.map((p) => p.projectId),
        plan.projects.map((p) => p.projectId),
        plan.projects.map((p) => p.teamId),
      ],
    );
    log(
      `  seeded ${to.toLocaleString('en')} / ${plan.total.toLocaleString('en')} (${Math.round((Date.now() - started) / 1000)} s)`,
    );
  }
  await db.query('VACUUM ANALYZE assets.assets');
}
