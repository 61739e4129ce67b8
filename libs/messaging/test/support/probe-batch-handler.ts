import { TOPICS, type EventEnvelope, type ProbeRecordedData } from '@genasset/contracts';
import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { EventContext, OnEvent, type SqlClient } from '../../src';
import { SINK_SCHEMA } from './probe-schema';

/**
 * The probe effect as a batch handler: every fresh event of a delivery batch
 * in one statement (ledger rows + per-subject balances). What a
 * high-volume consumer does (bench/outbox).
 */
export function probeBatchController(options: { consumer: string; prefix: string }): new () => object {
  @Controller()
  class ProbeBatchController {
    @OnEvent(TOPICS.platformProbe, { consumer: options.consumer, batch: true })
    async recorded(@Payload() events: EventEnvelope<ProbeRecordedData>[], @Ctx() ctx: EventContext<SqlClient>): Promise<void> {
      const rows = events.filter((e) => e.data.subject.startsWith(options.prefix)).map((e) => ({ id: e.id, ...e.data }));
      if (rows.length === 0) return;
      await ctx.tx.$executeRawUnsafe(
        `WITH r AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(id text, subject text, sequence int, amount int)),
              l AS (INSERT INTO ${SINK_SCHEMA}.ledger (event_id, subject, sequence, amount) SELECT id, subject, sequence, amount FROM r)
         INSERT INTO ${SINK_SCHEMA}.balances AS b (subject, total, events, last_sequence)
         SELECT subject, sum(amount), count(*), max(sequence) FROM r GROUP BY subject
         ON CONFLICT (subject) DO UPDATE SET
           total = b.total + excluded.total,
           events = b.events + excluded.events,
           last_sequence = GREATEST(b.last_sequence, excluded.last_sequence)`,
        JSON.stringify(rows),
      );
    }
  }
  return ProbeBatchController;
}
