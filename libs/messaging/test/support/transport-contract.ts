import { ProbeRecorded } from '@genasset/contracts';
import type { DatabaseConnection } from '@genasset/persistence';
import { waitFor } from '@genasset/testing';
import type { RetryPolicy } from '../../src';
import type { ProbeApp } from './probe-app';
import { appliedCount, balances, SINK_SCHEMA, SOURCE_SCHEMA } from './probe-schema';
import { amountOf, expectedTotal, subjectName, writeBatch, writeProbes } from './probe-writer';

/** Fast retries so the contract runs in seconds. */
export const CONTRACT_RETRY: RetryPolicy = { attempts: 3, initialDelayMs: 50, maxDelayMs: 200 };

export interface DeadLetterView {
  key: string | null;
  eventId?: string;
  reason: string;
}

export interface ContractHarness {
  readonly prefix: string;
  readonly probe: ProbeApp;
  readonly connection: DatabaseConnection;
  /** Handler calls per event id. */
  readonly attempts: Map<string, number>;
  /** Per event id, how each handler call's transaction ended (true: committed). */
  readonly settled: Map<string, boolean[]>;
  /** Dead letters of this run seen so far. */
  deadLetters(): Promise<DeadLetterView[]>;
  close(): Promise<void>;
}

/**
 * The behaviour both transports promise (libs/messaging/README.md), as one suite:
 * published through the outbox → applied once; redelivered → ignored;
 * failing handler → retried, then dead-lettered without blocking its key;
 * per-key order kept.
 */
export function transportContract(name: string, start: () => Promise<ContractHarness>): void {
  describe(`${name} transport contract`, () => {
    let h: ContractHarness;
    beforeAll(async () => {
      h = await start();
    });
    afterAll(async () => {
      await h?.close();
    });

    it('applies each outbox event exactly once, in order per key', async () => {
      const prefix = `${h.prefix}-a`;
      const plan = { prefix, subjects: 4, perSubject: 25, batch: 10, concurrency: 2 };
      await writeProbes(h.probe.sourceClient, h.probe.outbox, plan);
      await waitFor(async () => (await appliedCount(h.connection, prefix)) === 100, { timeoutMs: 60_000, what: '100 probes applied' });
      const rows = await balances(h.connection, prefix);
      expect(rows.size).toBe(4);
      for (let s = 0; s < 4; s++) {
        expect(rows.get(subjectName(prefix, s))).toEqual({
          subject: subjectName(prefix, s),
          total: expectedTotal(25),
          events: 25,
          last_sequence: 24,
          out_of_order: 0,
        });
      }
      await waitFor(async () => (await h.connection.query(`SELECT 1 FROM ${SOURCE_SCHEMA}.outbox_events LIMIT 1`)).length === 0, {
        what: 'outbox drained',
      });
    });

    it('ignores a redelivered event', async () => {
      const prefix = `${h.prefix}-d`;
      const subject = subjectName(prefix, 0);
      const first = h.probe.outbox.event(ProbeRecorded, { subject, sequence: 0, amount: amountOf(0) });
      await writeBatch(h.probe.sourceClient, h.probe.outbox, [first]);
      await waitFor(async () => (await appliedCount(h.connection, prefix)) === 1, { timeoutMs: 30_000, what: 'first delivery' });
      // The same event again (same id), then a new one on the same key: once
      // the new one is applied, the copy before it has been seen.
      const copy = { ...first, occurredAt: new Date().toISOString() };
      const next = h.probe.outbox.event(ProbeRecorded, { subject, sequence: 1, amount: amountOf(1) });
      await writeBatch(h.probe.sourceClient, h.probe.outbox, [copy]);
      await writeBatch(h.probe.sourceClient, h.probe.outbox, [next]);
      await waitFor(async () => (await appliedCount(h.connection, prefix)) >= 2, { timeoutMs: 30_000, what: 'second event' });
      const ledger = await h.connection.query<{ event_id: string }>(`SELECT event_id FROM ${SINK_SCHEMA}.ledger WHERE subject = $1`, [subject]);
      expect(ledger.map((r) => r.event_id).sort()).toEqual([first.id, next.id].sort());
      expect(h.attempts.get(first.id)).toBe(1);
      expect((await balances(h.connection, prefix)).get(subject)).toMatchObject({ events: 2, total: amountOf(0) + amountOf(1), out_of_order: 0 });
    });

    it('retries a failing handler, dead-letters the event and goes on with its key', async () => {
      const prefix = `${h.prefix}-f`;
      const subject = `${prefix}-fail`;
      const ok0 = h.probe.outbox.event(ProbeRecorded, { subject: `${prefix}-ok`, sequence: 0, amount: 1 });
      const poison = h.probe.outbox.event(ProbeRecorded, { subject, sequence: 0, amount: 1 });
      const ok1 = h.probe.outbox.event(ProbeRecorded, { subject: `${prefix}-ok`, sequence: 1, amount: 2 });
      // Same key for all three so they share a partition: the poison sits between two good events.
      const sameKey = [ok0, { ...poison, key: ok0.key }, ok1];
      await writeBatch(h.probe.sourceClient, h.probe.outbox, sameKey);
      await waitFor(async () => (await appliedCount(h.connection, prefix)) === 2, { timeoutMs: 30_000, what: 'events around the poison' });
      const letters = await waitFor(
        async () => {
          const found = (await h.deadLetters()).filter((d) => d.eventId === poison.id);
          return found.length > 0 ? found : undefined;
        },
        { timeoutMs: 30_000, what: 'dead letter of the poison event' },
      );
      expect(letters[0].reason).toContain(`probe handler refuses ${subject}`);
      expect(letters[0].reason).toContain('3x');
      expect(h.attempts.get(poison.id)).toBe(CONTRACT_RETRY.attempts);
      // onSettled: every call of the poison rolled back; its neighbours' effects committed exactly once
      // (a first try in one transaction with the poison rolls back with it).
      expect(h.settled.get(poison.id)).toEqual(Array(CONTRACT_RETRY.attempts).fill(false));
      for (const ok of [ok0, ok1]) expect(h.settled.get(ok.id)?.filter((c) => c)).toEqual([true]);
      expect((await balances(h.connection, prefix)).get(`${prefix}-ok`)).toMatchObject({ events: 2, total: 3, out_of_order: 0 });
    });
  });
}
