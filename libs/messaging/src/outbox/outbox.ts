import {
  buildEventRegistry,
  createEnvelope,
  type EventDefinition,
  type EventEnvelope,
  type TraceHeaders,
} from '@genasset/contracts';
import { currentTraceHeaders } from '@genasset/observability';
import { isPrepared, prepared } from '@genasset/persistence';
import { outboxChannel } from '../core/messaging-tables';
import { schemaIdent, type SqlClient } from '../core/sql-client';

export interface OutboxOptions {
  /** The owning service's PostgreSQL schema (where its outbox table lives). */
  readonly schema: string;
  /** Service name stamped on envelopes built by `event()`. */
  readonly producer: string;
  /** Event type → definition, to find each envelope's topic. Defaults to every contract. */
  readonly registry?: ReadonlyMap<string, EventDefinition>;
}

/**
 * The rows of `$1`, a JSON array of `{id, topic, key, envelope}`, in
 * array order. Read as `json`, not `jsonb`: `json_to_recordset` parses each
 * element once, and a `json` column keeps the envelope's text exactly as
 * `JSON.stringify` wrote it, so it is stored (and later published) without
 * re-rendering. (The jsonb route parsed the whole array into binary form, then
 * parsed each envelope again from an escaped string: ~45 % more database time
 * per insert.)
 */
const ROWS_SQL = `SELECT r.id, r.topic, r.key, r.envelope
          FROM ROWS FROM (json_to_recordset($1::json) AS (id text, topic text, key text, envelope json))
               WITH ORDINALITY AS r(id, topic, key, envelope, ord)
         ORDER BY r.ord`;
/** ROWS_SQL when the `guard` CTE of `writeIf` returned a row. */
const GUARDED_ROWS_SQL = ROWS_SQL.replace(
  'ORDER BY',
  'WHERE EXISTS (SELECT 1 FROM guard)\n         ORDER BY',
);

/**
 * Writes events into a service's outbox inside the caller's transaction, so
 * the events exist if and only if the state change that caused them commits.
 * Never publishes: the relay does, after commit.
 */
export class Outbox {
  readonly schema: string;
  readonly producer: string;
  private readonly registry: ReadonlyMap<string, EventDefinition>;
  private readonly insertSql: string;
  /** writeIf's statement by guard text, for guards marked `prepared()` (fixed texts: a handful per service). */
  private readonly guardedSql = new Map<string, string>();

  constructor(options: OutboxOptions) {
    this.schema = options.schema;
    this.producer = options.producer;
    this.registry = options.registry ?? buildEventRegistry();
    const table = `${schemaIdent(options.schema)}.outbox_events`;
    // One statement for any number of events: rows travel as one JSON array
    // (works the same through every Prisma driver adapter), keep their order
    // for seq, and the NOTIFY rides along. NOTIFY is transactional: the relay
    // is woken at commit, never for a rolled-back write. A fixed text per
    // schema: prepared (parsed and planned once per session) where it runs on
    // the driver.
    this.insertSql = prepared(`WITH written AS (
        INSERT INTO ${table} (id, topic, key, envelope)
        ${ROWS_SQL}
        RETURNING 1
      )
      SELECT pg_notify($2, (SELECT count(*) FROM written)::text)`);
  }

  /** Builds an envelope stamped with this service as producer. */
  event<TData extends object>(
    definition: EventDefinition<string, TData>,
    data: TData,
    options: { trace?: TraceHeaders; occurredAt?: Date } = {},
  ): EventEnvelope<TData> {
    return createEnvelope(definition, data, { producer: this.producer, ...options });
  }

  /**
   * Inserts the envelopes in the caller's transaction (`tx` is the transaction
   * client of `prisma.$transaction(async (tx) => …)`), in the given order.
   */
  async write(tx: SqlClient, envelopes: readonly EventEnvelope[]): Promise<void> {
    if (envelopes.length === 0) return;
    await tx.$executeRawUnsafe(this.insertSql, this.rowsJson(envelopes), outboxChannel(this.schema));
  }

  /**
   * One statement, so atomic without a transaction around it: runs `guard`
   * (a data-modifying statement with RETURNING, e.g. the UPDATE that ends a
   * claim) and inserts the envelopes only when it returned a row. Returns
   * whether it did. Saves an explicit transaction's BEGIN and COMMIT round
   * trips where a state change and its events are all the work. `guard.sql`
   * numbers its parameters from $1 like any statement. A guard marked
   * `prepared()` (a fixed text) makes the whole statement prepared.
   */
  async writeIf(
    client: SqlClient,
    guard: { sql: string; params: readonly unknown[] },
    envelopes: readonly EventEnvelope[],
  ): Promise<boolean> {
    const rows = await client.$queryRawUnsafe<{ guarded: boolean }[]>(
      this.guardedInsert(guard.sql),
      this.rowsJson(envelopes),
      outboxChannel(this.schema),
      ...guard.params,
    );
    return rows[0]?.guarded === true;
  }

  /** writeIf's statement around `guard`; kept (and prepared) for prepared guards. */
  private guardedInsert(guard: string): string {
    const known = this.guardedSql.get(guard);
    if (known !== undefined) return known;
    const shift = 2;
    const guardSql = guard.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + shift}`);
    const sql = `WITH guard AS (${guardSql}),
       written AS (
        INSERT INTO ${schemaIdent(this.schema)}.outbox_events (id, topic, key, envelope)
        ${GUARDED_ROWS_SQL}
        RETURNING 1
      )
      SELECT EXISTS (SELECT 1 FROM guard) AS guarded,
             (SELECT count(*)::int FROM (SELECT pg_notify($2, (SELECT count(*) FROM written)::text)
                                          WHERE EXISTS (SELECT 1 FROM guard)) AS n) AS notified`;
    if (!isPrepared(guard)) return sql;
    this.guardedSql.set(guard, prepared(sql));
    return sql;
  }

    private rowsJson(envelopes: readonly EventEnvelope[]): string {
    // The writer's trace context travels in the envelope, so the consumer
    // continues the trace (tracing off: undefined, nothing added). The rows'
    // `headers` column is no longer written (events carry no headers); it
    // stays, with its '{}' default, for relays of the previous version during
    // a rolling deploy.
    const trace = currentTraceHeaders();
    const rows = envelopes.map((written) => {
      const envelope =
        trace && !written.trace?.traceparent
          ? { ...written, trace: { ...written.trace, ...trace } }
          : written;
      // The envelope goes in as an object, not as a string in the string: one
      // serialisation, no escaped quotes for PostgreSQL to undo (ROWS_SQL).
      return {
        id: envelope.id,
        topic: this.topicOf(envelope),
        key: envelope.key,
        envelope,
      };
    });
    return JSON.stringify(rows);
  }

  private topicOf(envelope: EventEnvelope): string {
    const definition = this.registry.get(envelope.type);
    if (!definition)
      throw new Error(`outbox: unknown event type ${envelope.type}; add it to the contracts registry`);
    return definition.topic;
  }
}
