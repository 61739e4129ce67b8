import type { QueryConfig } from 'pg';

/**
 * Statements marked with `prepared()` run on PostgreSQL as named prepared
 * statements: each pooled session parses and plans one once, then only binds
 * and executes it. Meant for the few set-based statements a hot path runs
 * thousands of times a second (bench/webhooks: planning alone was ~9 % of
 * PostgreSQL's time on the delivery path, the intake's endpoint match spent
 * 40 % of its time being planned). Opt-in, by the statement's exact text,
 * because every distinct text becomes a statement held by every session:
 * text built per call (variable IN lists, inlined values) must not be marked.
 *
 * PGlite runs every statement as it comes; the mark changes nothing there.
 * Behind PgBouncer in transaction pooling mode, use PgBouncer 1.21 or later
 * with `max_prepared_statements` set.
 */
const names = new Map<string, string>();

/** Marks `sql` to run as a named prepared statement on PostgreSQL; returns it unchanged. */
export function prepared(sql: string): string {
  // Names are process-local and only need to be unique within a session, which a counter gives.
  if (!names.has(sql)) names.set(sql, `genasset_${names.size + 1}`);
  return sql;
}

/** Whether `sql` was marked with `prepared()` (a statement built around it may be marked too: its text is as fixed). */
export function isPrepared(sql: string): boolean {
  return names.has(sql);
}

/** The pg query for `sql`: named when it was marked with `prepared()`. */
export function pgQuery(sql: string, values: unknown[]): QueryConfig {
  const name = names.get(sql);
  return name ? { name, text: sql, values } : { text: sql, values };
}
