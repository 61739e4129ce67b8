import { TOPICS, type EventEnvelope, type ProbeRecordedData } from '@genasset/contracts';
import { Controller } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { EventContext, OnEvent, type SqlClient } from '../../src';
import type { PrismaClient } from '../src/generated/prisma/client';
import { SINK_SCHEMA } from './probe-schema';

/** The transaction client a handler gets for this schema's Prisma client. */
export type ProbeTx = Parameters<Parameters<PrismaClient['$transaction']>[0]>[0];

export interface ProbeHandlerOptions {
  readonly consumer: string;
  /** Only subjects with this prefix change state (the broker also holds other runs' events). */
  readonly prefix: string;
  /** Counts handler calls per event id (retries included). */
  readonly attempts?: Map<string, number>;
  /** How each handler call's transaction ended, per event id (EventContext.onSettled). */
  readonly settled?: Map<string, boolean[]>;
  /** Called inside the transaction after the effect (the kill switch hooks in here). */
  readonly afterApply?: (envelope: EventEnvelope<ProbeRecordedData>, tx: unknown) => void;
}

/**
 * The consumer side's effect: a ledger row per applied event (so a double
 * application shows) and the subject's balance, counting events that arrive
 * out of sequence. Subjects containing "fail" always throw.
 */
export async function applyProbe(tx: SqlClient & Partial<Pick<ProbeTx, 'ledgerEntry'>>, envelope: EventEnvelope<ProbeRecordedData>): Promise<void> {
  const { subject, sequence, amount } = envelope.data;
  if (subject.includes('fail')) throw new Error(`probe handler refuses ${subject}#${sequence}`);
  if (tx.ledgerEntry) {
    // The generated model API on the handler's transaction client.
    await tx.ledgerEntry.create({ data: { eventId: envelope.id, subject, sequence, amount } });
  } else {
    await tx.$executeRawUnsafe(
      `INSERT INTO ${SINK_SCHEMA}.ledger (event_id, subject, sequence, amount) VALUES ($1, $2, $3, $4)`,
      envelope.id,
      subject,
      sequence,
      amount,
    );
  }
  await tx.$executeRawUnsafe(
    `INSERT INTO ${SINK_SCHEMA}.balances AS b (subject, total, events, last_sequence, out_of_order)
     VALUES ($1, $2, 1, $3, CASE WHEN $3 = 0 THEN 0 ELSE 1 END)
     ON CONFLICT (subject) DO UPDATE SET
       total = b.total + excluded.total,
       events = b.events + 1,
       last_sequence = excluded.last_sequence,
       out_of_order = b.out_of_order + CASE WHEN excluded.last_sequence = b.last_sequence + 1 THEN 0 ELSE 1 END`,
    subject,
    amount,
    sequence,
  );
}

/** A controller class with one `@OnEvent` handler for `consumer` (built per test: consumer names are per run). */
export function probeController(options: ProbeHandlerOptions): new () => object {
  @Controller()
  class ProbeController {
    @OnEvent(TOPICS.platformProbe, { consumer: options.consumer })
    async recorded(@Payload() envelope: EventEnvelope<ProbeRecordedData>, @Ctx() ctx: EventContext<ProbeTx>): Promise<void> {
      options.attempts?.set(envelope.id, (options.attempts.get(envelope.id) ?? 0) + 1);
      ctx.onSettled((committed) => options.settled?.set(envelope.id, [...(options.settled.get(envelope.id) ?? []), committed]));
      if (!envelope.data.subject.startsWith(options.prefix)) return;
      await applyProbe(ctx.tx, envelope);
      options.afterApply?.(envelope, ctx.tx);
    }
  }
  return ProbeController;
}
