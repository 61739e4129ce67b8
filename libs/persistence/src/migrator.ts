import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { quoteIdent, type DatabaseConnection } from './database';

/**
 * Where one owner's tables live: its PostgreSQL schema and the ordered SQL
 * migration folders applied into it (the owner's own, plus shared ones such as
 * the messaging outbox/inbox tables).
 */
export interface SchemaDefinition {
  /** PostgreSQL schema name, e.g. "webhooks". */
  readonly schema: string;
  /** Folders of `NNNN_name.sql` files, applied in folder order, then file order. */
  readonly migrations: readonly { readonly source: string; readonly dir: string }[];
  /** The Prisma schema file describing these tables (checked by the drift test). */
  readonly prismaSchema?: string;
}

export interface AppliedMigration {
  name: string;
  applied: boolean;
}

/**
 * Prisma 7's CLI cannot run migrations on these machines (it insists on a
 * native schema engine it downloads), so migrations are plain SQL files applied
 * here: each in its own transaction with `search_path` set to the owner's
 * schema, recorded with a checksum in `<schema>._migrations`, serialised across
 * replicas by an advisory lock. An applied file that was edited afterwards is an error.
 */
export async function migrate(db: DatabaseConnection, definition: SchemaDefinition): Promise<AppliedMigration[]> {
  const schema = quoteIdent(definition.schema);
  const files = definition.migrations.flatMap(({ source, dir }) =>
    readdirSync(dir)
      .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
      .sort()
      .map((f) => ({ name: `${source}/${f}`, sql: readFileSync(join(dir, f), 'utf8') })),
  );

  return db.transaction(async (query) => {
    await query('SELECT pg_advisory_xact_lock(hashtext($1))', [`migrate:${definition.schema}`]);
    await query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await query(
      `CREATE TABLE IF NOT EXISTS ${schema}._migrations (
         name text PRIMARY KEY,
         checksum text NOT NULL,
         applied_at timestamptz(3) NOT NULL DEFAULT now()
       )`,
    );
    const applied = new Map(
      (await query<{ name: string; checksum: string }>(`SELECT name, checksum FROM ${schema}._migrations`)).map((r) => [
        r.name,
        r.checksum,
      ]),
    );
    const results: AppliedMigration[] = [];
    for (const file of files) {
      const checksum = createHash('sha256').update(file.sql).digest('hex');
      const previous = applied.get(file.name);
      if (previous !== undefined) {
        if (previous !== checksum) {
          throw new Error(`migration ${definition.schema}:${file.name} was changed after it was applied; add a new migration instead`);
        }
        results.push({ name: file.name, applied: false });
        continue;
      }
      await query(`SET LOCAL search_path TO ${schema}`);
      await query(file.sql);
      await query(`INSERT INTO ${schema}._migrations (name, checksum) VALUES ($1, $2)`, [file.name, checksum]);
      results.push({ name: file.name, applied: true });
    }
    await query('SET LOCAL search_path TO DEFAULT');
    return results;
  });
}
