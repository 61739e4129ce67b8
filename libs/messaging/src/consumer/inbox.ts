import { prepared } from '@genasset/persistence';
import { schemaIdent, type SqlClient } from '../core/sql-client';

/** The inbox of one service schema: which events each of its consumers has applied. */
export class Inbox {
  private readonly claimSql: string;

  constructor(readonly schema: string) {
    // Answers with one row naming only the ids that were marked before (almost
    // always none), instead of one row per fresh id: the claim runs through
    // the handler's ORM transaction, where every returned row costs. The ids
    // are read as json, not jsonb: one plain parse, no binary form to build.
    this.claimSql = prepared(`WITH ids AS (SELECT json_array_elements_text($2::json) AS id),
      marked AS (
        INSERT INTO ${schemaIdent(schema)}.inbox_events (consumer, event_id)
        SELECT $1, id FROM ids
        ON CONFLICT DO NOTHING
        RETURNING event_id
      )
      SELECT array_agg(id) AS seen FROM ids WHERE id NOT IN (SELECT event_id FROM marked)`);
  }

  /**
   * Marks the events applied within `tx` and returns the ids that were not
   * marked before: only those may run. One statement for a whole batch; a
   * concurrent claim of the same id (rebalance overlap) waits for the other
   * transaction and then finds the mark.
   */
  async claim(tx: SqlClient, consumer: string, eventIds: readonly string[]): Promise<Set<string>> {
    if (eventIds.length === 0) return new Set();
    const rows = await tx.$queryRawUnsafe<{ seen: string[] | null }[]>(
      this.claimSql,
      consumer,
      JSON.stringify(eventIds),
    );
    const fresh = new Set(eventIds);
    for (const id of rows[0]?.seen ?? []) fresh.delete(id);
    return fresh;
  }
}
