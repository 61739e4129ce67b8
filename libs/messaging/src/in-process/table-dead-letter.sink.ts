import type { DeadLetter, DeadLetterSink } from '../consumer/dead-letter-sink';
import { schemaIdent, type SqlClient } from '../core/sql-client';
import { countDeadLetter } from '../metrics/messaging.metrics';

/** Embedded mode has no `<topic>.dlt`: dead letters go to the consumer's `dead_letters` table. */
export class TableDeadLetterSink implements DeadLetterSink {
  private readonly sql: string;

  constructor(
    private readonly client: SqlClient,
    schema: string,
  ) {
    this.sql = `INSERT INTO ${schemaIdent(schema)}.dead_letters (consumer, topic, event_id, payload, headers, reason)
      VALUES ($1, $2, $3, $4, $5::jsonb, $6)`;
  }

  async deadLetter(letter: DeadLetter): Promise<void> {
    const { consumer, record, reason, eventId } = letter;
    const payload = record.value === null ? null : record.value.toString();
    await this.client.$executeRawUnsafe(
      this.sql,
      consumer,
      record.topic,
      eventId ?? record.headers['x-event-id'] ?? null,
      payload,
      JSON.stringify(record.headers),
      reason,
    );
    countDeadLetter(letter);
  }
}
