import { Inject, Injectable } from '@nestjs/common';
import { DATABASE_CONNECTION, LeaseTable, type DatabaseConnection } from '@genasset/persistence';

/** NOTIFY channel of new assets (migration 0006's trigger): wakes the embedder. */
export const MODEL_EMBEDDING_CHANNEL = 'assets_model_embedding';

/**
 * `embeddable()` of image-embedding.ts in SQL, written exactly as migration 0006's partial indexes
 * are, so the claims read those indexes.
 */
export const EMBEDDABLE_SQL = `kind = 'image' AND mime_type <> 'image/svg+xml'
    AND type <> ALL (ARRAY['detection', 'segmentation-mask', 'texture-height', 'texture-normal', 'texture-smoothness',
      'texture-metallic', 'texture-edge', 'texture-ao', '3d-texture-metallic', '3d-texture-normal', '3d-texture-roughness'])`;

/** A SQL string literal (the model name comes from the operator's file, not from a request; quoted all the same). */
export const sqlLiteral = (value: string) => `'${value.replace(/'/g, "''")}'`;

/** Rows whose vector is not of `model` (none yet, or another model's): three ranges of migration 0006's indexes (IS NULL, < m, > m). */
export const staleSql = (model: string) =>
  `(model_embedding_model IS NULL OR model_embedding_model < ${sqlLiteral(model)} OR model_embedding_model > ${sqlLiteral(model)})`;

/** An asset the embedder claimed. */
export type ClaimedAsset = {
  id: string;
  storageKey: string;
  mimeType: string;
};

/** Every lease of the embedder (any model): for an embedded process at start (reclaimAssetLeases). */
const ANY_MODEL = new LeaseTable({ table: 'assets.assets', key: 'id', lease: 'model_embedding_lease', held: 'model_embedding_lease IS NOT NULL' });

/**
 * The search model's vectors of assets (`model_embedding*` columns, migration 0006), and the queue
 * of assets that lack one: leased work on `assets` itself (libs/persistence LeaseTable) — a claim
 * takes a batch of embeddable assets whose vector is not of the configured model, FOR UPDATE SKIP
 * LOCKED (replicas take different rows), under a lease in `model_embedding_lease` (a replica that
 * dies loses nothing: the lease runs out). Results are written a batch per statement. The vector is
 * derived data: no fact, no `updated_at` change.
 */
@Injectable()
export class ModelEmbeddingsRepository {
  private readonly tables = new Map<string, LeaseTable[]>();

  constructor(@Inject(DATABASE_CONNECTION) private readonly db: DatabaseConnection) {}

  /**
   * The claims of `model`'s work, in the order a round takes them: assets never embedded, newest
   * first (`assets_model_embedding_new_idx`), then those of a model named before or after it
   * (`assets_model_embedding_model_idx`, one range each). Each reads its index in order and stops
   * at the batch: a claim costs the same whether ten or ten million assets wait.
   */
  private claims(model: string): LeaseTable[] {
    let tables = this.tables.get(model);
    if (!tables) {
      const free = `(model_embedding_lease IS NULL OR model_embedding_lease < now())`;
      const table = (stale: string, order: string) =>
        new LeaseTable({
          table: 'assets.assets',
          key: 'id',
          lease: 'model_embedding_lease',
          held: 'model_embedding_lease IS NOT NULL',
          pick: { claimable: `${EMBEDDABLE_SQL} AND ${stale} AND ${free}`, order },
        });
      tables = [
        table('model_embedding_model IS NULL', 'created_at DESC, id DESC'),
        table(`model_embedding_model IS NOT NULL AND model_embedding_model < ${sqlLiteral(model)}`, 'model_embedding_model'),
        table(`model_embedding_model IS NOT NULL AND model_embedding_model > ${sqlLiteral(model)}`, 'model_embedding_model'),
      ];
      this.tables.set(model, tables);
    }
    return tables;
  }

  /** Claims up to `limit` assets lacking a vector of `model`, for `leaseMs`. */
  async claim(model: string, limit: number, leaseMs: number): Promise<ClaimedAsset[]> {
    const claimed: ClaimedAsset[] = [];
    for (const table of this.claims(model)) {
      if (claimed.length >= limit) break;
      const { sql, params } = table.claim(limit - claimed.length, leaseMs, `id, storage_key AS "storageKey", mime_type AS "mimeType"`);
      claimed.push(...(await this.db.query<ClaimedAsset>(sql, params)));
    }
    return claimed;
  }

  /** Stores vectors (all of one length) of `model`, one statement for the batch; ends their claims. */
  async save(model: string, items: readonly { id: string; embedding: readonly number[] }[]): Promise<void> {
    if (!items.length) return;
    const dims = items[0].embedding.length;
    if (items.some((i) => i.embedding.length !== dims)) throw new Error('embeddings of one batch differ in length');
    // One flat array and its slices: a batch of vectors in one parameter that both drivers send as real[].
    await this.db.query(
      `UPDATE assets.assets a
          SET model_embedding = ($2::real[])[(v.ord - 1) * $3 + 1 : v.ord * $3],
              model_embedding_model = $4, model_embedding_error = NULL, model_embedding_lease = NULL
         FROM unnest($1::text[]) WITH ORDINALITY AS v(id, ord)
        WHERE a.id = v.id`,
      [items.map((i) => i.id), items.flatMap((i) => i.embedding), dims, model],
    );
  }

  /** Records that `model` cannot embed these assets (their bytes): not tried again for this model. */
  async fail(model: string, items: readonly { id: string; error: string }[]): Promise<void> {
    if (!items.length) return;
    await this.db.query(
      `UPDATE assets.assets a
          SET model_embedding = NULL, model_embedding_model = $3, model_embedding_error = v.error, model_embedding_lease = NULL
         FROM unnest($1::text[], $2::text[]) AS v(id, error)
        WHERE a.id = v.id`,
      [items.map((i) => i.id), items.map((i) => i.error.slice(0, 500)), model],
    );
  }

  /** Gives claims back, claimable again after `delayMs` (a back-off). */
  async release(ids: readonly string[], delayMs: number): Promise<void> {
    if (!ids.length) return;
    await this.db.query(
      `UPDATE assets.assets SET model_embedding_lease = now() + $2::float8 * interval '1 millisecond'
        WHERE id = ANY ($1::text[]) AND model_embedding_lease IS NOT NULL`,
      [[...ids], delayMs],
    );
  }

  /** Assets still lacking a vector of `model` (claimed or backing off included), counted up to `cap`. */
  async pending(model: string, cap: number): Promise<number> {
    const [row] = await this.db.query<{ n: number | string }>(
      `SELECT count(*) AS n FROM (SELECT 1 FROM assets.assets WHERE ${EMBEDDABLE_SQL} AND ${staleSql(model)} LIMIT $1) t`,
      [cap],
    );
    return Number(row?.n ?? 0);
  }

  /** The dimension of `model`'s stored vectors (one row's), undefined when none is stored. */
  async dimensions(model: string): Promise<number | undefined> {
    // The embeddable predicate and `model_embedding_model IS NOT NULL` let it read migration 0006's index of embedded rows.
    const [row] = await this.db.query<{ dims: number | string | null }>(
      `SELECT cardinality(model_embedding) AS dims FROM assets.assets
        WHERE ${EMBEDDABLE_SQL} AND model_embedding_model IS NOT NULL AND model_embedding_model = $1 AND model_embedding IS NOT NULL LIMIT 1`,
      [model],
    );
    return row?.dims ? Number(row.dims) : undefined;
  }

  /** What the search model could not embed, for tests and operators: id → error. */
  async failures(model: string, ids: readonly string[]): Promise<Record<string, string>> {
    const rows = await this.db.query<{ id: string; error: string }>(
      `SELECT id, model_embedding_error AS error FROM assets.assets
        WHERE id = ANY ($1::text[]) AND model_embedding_model = $2 AND model_embedding_error IS NOT NULL`,
      [[...ids], model],
    );
    return Object.fromEntries(rows.map((r) => [r.id, r.error]));
  }
}

/** Ends the embedder's leases (and back-offs) now: an embedded process at start, before its loops run. */
export function reclaimModelEmbeddingLeases(db: Pick<DatabaseConnection, 'query'>): Promise<number> {
  return ANY_MODEL.reclaim(db);
}
