import { buildEventRegistry, createEnvelope, ProbeRecorded, TOPICS } from '@genasset/contracts';
import type { MessageHandler } from '@nestjs/microservices';
import type { InboundRecord } from '../core/messages';
import type { SqlClient, TransactionalClient } from '../core/sql-client';
import type { DeadLetterSink } from './dead-letter-sink';
import { EventProcessor } from './event-processor';
import { HandlerTable } from './handler-table';

const topic = TOPICS.platformProbe;

/** A database that only counts: transactions opened and the ids each inbox mark was asked for. */
function countingClient() {
  const marked: string[][] = [];
  let transactions = 0;
  const tx: SqlClient = {
    $queryRawUnsafe: (async (_sql: string, _consumer: string, ids: string) => {
      marked.push(JSON.parse(ids) as string[]);
      return [{ seen: null }];
    }) as SqlClient['$queryRawUnsafe'],
    $executeRawUnsafe: (async () => 0) as SqlClient['$executeRawUnsafe'],
  };
  const client = {
    $transaction: async (fn: (t: SqlClient) => Promise<unknown>) => {
      transactions++;
      return fn(tx);
    },
  } as unknown as TransactionalClient;
  return { client, marked, transactions: () => transactions };
}

function processorFor(
  when: ((envelope: { data: { subject: string } }) => boolean) | undefined,
  { clock, msPerEvent = () => 0 }: { clock?: { ms: number }; msPerEvent?: (subject: string) => number } = {},
) {
  const seen: string[] = [];
  const fn = (async (envelope: { data: { subject: string } }) => {
    seen.push(envelope.data.subject);
    if (clock) clock.ms += msPerEvent(envelope.data.subject);
  }) as unknown as MessageHandler;
  fn.isEventHandler = true;
  fn.extras = { consumer: 'c', types: [ProbeRecorded.type], ...(when ? { when } : {}) };
  const table = HandlerTable.build([{ pattern: topic, handler: fn }], new Set(['c']), new Set([topic]));
  const db = countingClient();
  const processor = new EventProcessor(
    { consumer: 'c', schema: 'probe', client: db.client },
    table,
    {} as DeadLetterSink,
    {
      retry: { attempts: 1, initialDelayMs: 1, maxDelayMs: 1 },
      maxEventsPerTransaction: 100,
      transactionBudgetMs: 100,
      transactionTimeoutMs: 5_000,
      registry: buildEventRegistry(),
      logger: { log: () => undefined, warn: () => undefined, error: () => undefined },
      ...(clock ? { now: () => clock.ms } : {}),
    },
  );
  return { processor, seen, db };
}

function records(subjects: string[]): { records: InboundRecord[]; ids: string[] } {
  const envelopes = subjects.map((subject, sequence) =>
    createEnvelope(ProbeRecorded, { subject, sequence, amount: 1 }, { producer: 'test' }),
  );
  return {
    ids: envelopes.map((e) => e.id),
    records: envelopes.map((e, i) => ({
      topic,
      partition: 0,
      offset: String(i),
      key: e.key,
      value: JSON.stringify(e),
      headers: {},
    })),
  };
}

describe("EventProcessor: a handler's `when`", () => {
  it('runs the handler and marks the inbox only for the events it accepts', async () => {
    const { processor, seen, db } = processorFor((e) => e.data.subject.startsWith('mine'));
    const batch = records(['mine-1', 'other-1', 'mine-2']);
    await processor.process(batch.records);
    expect(seen).toEqual(['mine-1', 'mine-2']);
    expect(db.marked).toEqual([[batch.ids[0], batch.ids[2]]]);
    expect(db.transactions()).toBe(1);
  });

  it('opens no transaction for a chunk it turns down entirely, and still commits its offset', async () => {
    const { processor, seen, db } = processorFor((e) => e.data.subject.startsWith('mine'));
    const committed: string[] = [];
    await processor.process(records(['other-1', 'other-2']).records, {
      committed: async (last) => {
        committed.push(last.offset);
      },
    });
    expect(seen).toEqual([]);
    expect(db.transactions()).toBe(0);
    expect(committed).toEqual(['1']);
  });

  it('hands the event to the handler when `when` throws (the handler decides, with retries)', async () => {
    const { processor, seen } = processorFor(() => {
      throw new Error('bad predicate');
    });
    await processor.process(records(['any-1']).records);
    expect(seen).toEqual(['any-1']);
  });

  it('is refused at startup when it is not a function', () => {
    const fn = (async () => undefined) as unknown as MessageHandler;
    fn.isEventHandler = true;
    fn.extras = { consumer: 'c', when: 'yes' };
    expect(() =>
      HandlerTable.build([{ pattern: topic, handler: fn }], new Set(['c']), new Set([topic])),
    ).toThrow(/`when` must be a function/);
  });
});

describe('EventProcessor: events per transaction', () => {
  const subjects = (n: number, prefix = 'e') => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);

  it('commits costly events a few at a time, so the first ones are seen long before the last', async () => {
    // 40 events of 30 ms each against a 100 ms budget: one 16-event chunk to learn the cost, then 3 at a time.
    const clock = { ms: 0 };
    const { processor, seen, db } = processorFor(undefined, { clock, msPerEvent: () => 30 });
    const committedAt: number[] = [];
    await processor.process(records(subjects(40)).records, {
      committed: async () => {
        committedAt.push(clock.ms);
      },
    });
    expect(seen).toHaveLength(40);
    expect(db.marked.map((ids) => ids.length)).toEqual([16, 3, 3, 3, 3, 3, 3, 3, 3]);
    // Before, one transaction of 40 (under the 100-event cap) made every event wait 1,200 ms.
    expect(committedAt[1]).toBe(16 * 30 + 3 * 30);
  });

  it('keeps cheap events in large chunks (few transactions)', async () => {
    const clock = { ms: 0 };
    const { processor, db } = processorFor(undefined, { clock, msPerEvent: () => 0.1 });
    await processor.process(records(subjects(316)).records);
    expect(db.marked.map((ids) => ids.length)).toEqual([16, 100, 100, 100]);
  });

  it('follows a change of cost within a few chunks, both ways', async () => {
    const clock = { ms: 0 };
    const { processor, db } = processorFor(undefined, {
      clock,
      msPerEvent: (subject) => (subject.startsWith('slow') ? 50 : 0.1),
    });
    await processor.process(records(subjects(116, 'fast')).records);
    await processor.process(records(subjects(10, 'slow')).records);
    const afterSlow = db.marked.length;
    await processor.process(records(subjects(600, 'fast')).records);
    const sizes = db.marked.map((ids) => ids.length);
    expect(sizes.slice(0, 2)).toEqual([16, 100]);
    // The 10 slow events: one chunk sized by the fast ones before them.
    expect(sizes[2]).toBe(10);
    // Fast again: small chunks first (the estimate still holds the slow ones), growing to the cap.
    const after = sizes.slice(afterSlow);
    expect(after[0]).toBe(6);
    expect(after.reduce((a, b) => a + b, 0)).toBe(600);
    expect(after.slice(0, after.indexOf(100) + 1)).toEqual([6, 9, 13, 19, 27, 38, 53, 75, 100]);
  });
});
