import { schemaIdent, type SqlClient } from '../core/sql-client';

/** The inbox of one service schema: which events each of its consumers has applied. */
export class Inbox {
  private readonly claimSql: string;

  constructor(readonly schema: string) {
    this.claimSql = `INSERT INTO ${schemaIdent(schema)}.inbox_events (consumer, event_id)
      SELECT $1, jsonb_array_elements_text($2::jsonb)
      ON CONFLICT DO NOTHING
      RETURNING event_id`;
  }

  /**
   * Marks the events applied within `tx` and returns the ids that were not
   * marked before: only those may run. One statement for a whole batch; a
   * concurrent claim of the same id (rebalance overlap) waits for the other
   * transaction and then finds the mark.
   */
  async claim(tx: SqlClient, consumer: string, eventIds: readonly string[]): Promise<Set<string>> {
    if (eventIds.length === 0) return new Set();
    const rows = await tx.$queryRawUnsafe<{ event_id: string }[]>(this.claimSql, consumer, JSON.stringify(eventIds));
    return new Set(rows.map((r) => r.event_id));
  }
}
