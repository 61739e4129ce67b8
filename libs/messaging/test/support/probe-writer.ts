import { ProbeRecorded, type EventEnvelope, type ProbeRecordedData } from '@genasset/contracts';
import type { Outbox, TransactionalClient } from '../../src';
import { SOURCE_SCHEMA } from './probe-schema';

export interface ProbePlan {
  readonly prefix: string;
  readonly subjects: number;
  readonly perSubject: number;
  /** Events per writing transaction. */
  readonly batch: number;
  /** Writing transactions in flight at once. */
  readonly concurrency?: number;
}

/** Amount of event `sequence` of a subject: varied, so a lost or doubled event changes the total. */
export const amountOf = (sequence: number): number => (sequence % 7) + 1;

export function expectedTotal(perSubject: number): number {
  let total = 0;
  for (let s = 0; s < perSubject; s++) total += amountOf(s);
  return total;
}

export function subjectName(prefix: string, index: number): string {
  return `${prefix}-s${index}`;
}

/**
 * The producing service's use case: each transaction records its probes in
 * its own ledger (the state change) and writes their events to the outbox.
 * Events are interleaved across subjects, each subject's in sequence order.
 */
export async function writeProbes(client: TransactionalClient, outbox: Outbox, plan: ProbePlan): Promise<number> {
  const lanes = Math.max(1, Math.min(plan.concurrency ?? 1, plan.subjects));
  // Each lane owns whole subjects and writes their events in order: like a real
  // service serialising one aggregate's writes, so per-key order is defined.
  const write = async (lane: number) => {
    let batch: EventEnvelope<ProbeRecordedData>[] = [];
    for (let seq = 0; seq < plan.perSubject; seq++) {
      for (let s = lane; s < plan.subjects; s += lanes) {
        batch.push(outbox.event(ProbeRecorded, { subject: subjectName(plan.prefix, s), sequence: seq, amount: amountOf(seq) }));
        if (batch.length === plan.batch) {
          await writeBatch(client, outbox, batch);
          batch = [];
        }
      }
    }
    if (batch.length > 0) await writeBatch(client, outbox, batch);
  };
  await Promise.all(Array.from({ length: lanes }, (_, lane) => write(lane)));
  return plan.subjects * plan.perSubject;
}

export async function writeBatch(client: TransactionalClient, outbox: Outbox, batch: readonly EventEnvelope<ProbeRecordedData>[]): Promise<void> {
  await client.$transaction(async (tx) => {
    await tx.$executeRawUnsafe(
      `INSERT INTO ${SOURCE_SCHEMA}.ledger (event_id, subject, sequence, amount)
       SELECT r.id, r.subject, r.sequence, r.amount FROM jsonb_to_recordset($1::jsonb) AS r(id text, subject text, sequence int, amount int)`,
      JSON.stringify(batch.map((e) => ({ id: e.id, ...e.data }))),
    );
    await outbox.write(tx, batch);
  });
}
