import { randomBytes } from 'node:crypto';
import { createPrismaClient, PostgresConnection } from '@genasset/persistence';
import { createTestDatabase, waitFor, type TestDatabase } from '@genasset/testing';
import { ProbeRecorded } from '@genasset/contracts';
import { Outbox, OutboxRelay, type OutboundMessage, type OutboxRelayOptions, type Publisher } from '../src';
import { rawSqlClient } from '../src/core/sql-client';
import { PrismaClient } from './src/generated/prisma/client';
import { migrateProbe, SOURCE_SCHEMA } from './support/probe-schema';
import { writeProbes } from './support/probe-writer';

jest.setTimeout(120_000);

interface Sent {
  relay: string;
  message: OutboundMessage;
}

/** A publisher that records what each relay sent, and whether two publishes ever overlapped. */
function recordingPublishers() {
  const sent: Sent[] = [];
  let inFlight = 0;
  let overlapped = false;
  const publisher = (relay: string): Publisher => ({
    deliversInProcess: false,
    async publish(messages) {
      inFlight++;
      if (inFlight > 1) overlapped = true;
      await new Promise((r) => setTimeout(r, 5));
      for (const message of messages) sent.push({ relay, message });
      inFlight--;
    },
    async check() {},
    async close() {},
  });
  return { sent, publisher, overlapped: () => overlapped };
}

type Query = Parameters<Parameters<PostgresConnection['transaction']>[0]>[0];

/** A transaction on `on` that runs `body` (writes, or takes an xid) and stays open until `close()`. */
async function openTransaction(on: PostgresConnection, body: (query: Query) => Promise<unknown>) {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let opened!: () => void;
  const isOpen = new Promise<void>((r) => (opened = r));
  const done = on.transaction(async (query) => {
    await body(query);
    opened();
    await released;
  });
  await Promise.race([isOpen, done]);
  return {
    close: async () => {
      release();
      await done;
    },
  };
}

/** The relay's SQL on both paths: raw driver transactions and the Prisma client's. */
describe('outbox relay', () => {
  let db: TestDatabase;
  let connection: PostgresConnection;
  let prisma: PrismaClient;
  let outbox: Outbox;

  beforeAll(async () => {
    db = await createTestDatabase('msg_relay');
    connection = new PostgresConnection(db.url);
    await migrateProbe(connection);
    prisma = createPrismaClient(PrismaClient, connection);
    outbox = new Outbox({ schema: SOURCE_SCHEMA, producer: 'probe-producer' });
  });

  afterAll(async () => {
    await prisma?.$disconnect();
    await connection?.close();
    await db?.drop();
  });

  /** A relay on the raw driver that wakes on NOTIFY; its poll a minute away, so only NOTIFY and re-reads count. */
  const listeningRelay = (publisher: Publisher) =>
    new OutboxRelay(prisma, publisher, {
      schema: SOURCE_SCHEMA,
      pollIntervalMs: 60_000,
      listen: (channel, onNotify) => connection.listen(channel, onNotify),
      transaction: (fn) => connection.transaction(fn),
    });

  /** A relay on the driver that counts its transactions and its single statements (the peeks). */
  const countingRelay = (publisher: Publisher, options: Partial<OutboxRelayOptions>) => {
    const counts = { transactions: 0, statements: 0 };
    const relay = new OutboxRelay(prisma, publisher, {
      schema: SOURCE_SCHEMA,
      ...options,
      transaction: (fn) => {
        counts.transactions++;
        return connection.transaction(fn);
      },
      query: (sql, params) => {
        counts.statements++;
        return connection.query(sql, params);
      },
    });
    return { relay, counts };
  };

  const outboxEmpty = async () => (await connection.query(`SELECT 1 FROM ${SOURCE_SCHEMA}.outbox_events LIMIT 1`)).length === 0;

  it('publishes each row once, in order per key, with two relays competing for one schema', async () => {
    const prefix = `rl${randomBytes(3).toString('hex')}`;
    const { sent, publisher, overlapped } = recordingPublishers();
    const common = { schema: SOURCE_SCHEMA, batchSize: 15, lingerMs: 0, pollIntervalMs: 20 };
    const raw = new OutboxRelay(prisma, publisher('raw'), { ...common, transaction: (fn) => connection.transaction(fn) });
    const viaPrisma = new OutboxRelay(prisma, publisher('prisma'), common);
    try {
      // First the Prisma path alone, then both relays competing for the lock.
      await viaPrisma.start();
      await writeProbes(prisma, outbox, { prefix: `${prefix}a`, subjects: 2, perSubject: 40, batch: 7, concurrency: 2 });
      await waitFor(async () => sent.length >= 80 && (await outboxEmpty()), { timeoutMs: 60_000, what: '80 published' });
      await raw.start();
      await writeProbes(prisma, outbox, { prefix: `${prefix}b`, subjects: 2, perSubject: 40, batch: 7, concurrency: 2 });
      await waitFor(async () => sent.length >= 160 && (await outboxEmpty()), { timeoutMs: 60_000, what: '160 published' });
    } finally {
      await Promise.all([raw.stop(), viaPrisma.stop()]);
    }
    expect(overlapped()).toBe(false);
    expect(sent).toHaveLength(160);
    expect(new Set(sent.map((s) => s.message.id)).size).toBe(160);
    expect(sent.slice(0, 80).every((s) => s.relay === 'prisma')).toBe(true);
    for (const subject of [`${prefix}a-s0`, `${prefix}a-s1`, `${prefix}b-s0`, `${prefix}b-s1`]) {
      const sequences = sent
        .map((x) => JSON.parse(x.message.value) as { key: string; data: { sequence: number } })
        .filter((e) => e.key === subject)
        .map((e) => e.data.sequence);
      expect(sequences).toEqual(Array.from({ length: 40 }, (_, i) => i));
    }
    expect(JSON.parse(sent[0].message.value)).toMatchObject({ type: 'probe.recorded', producer: 'probe-producer' });
  });

  it('holds back rows of a later commit behind a lower seq still uncommitted, then publishes both in order without another NOTIFY', async () => {
    const prefix = `lc${randomBytes(3).toString('hex')}`;
    const { sent, publisher } = recordingPublishers();
    // Polling far away: only the re-reads after activity can pick the rows up.
    const relay = new OutboxRelay(prisma, publisher('raw'), {
      schema: SOURCE_SCHEMA,
      pollIntervalMs: 60_000,
      transaction: (fn) => connection.transaction(fn),
    });
    const early = outbox.event(ProbeRecorded, { subject: `${prefix}-s0`, sequence: 0, amount: 1 });
    const late = outbox.event(ProbeRecorded, { subject: `${prefix}-s0`, sequence: 1, amount: 1 });
    // The early writer takes the lower seq and stays open.
    const earlyTx = await openTransaction(connection, (query) => outbox.write(rawSqlClient(query), [early]));
    await prisma.$transaction((tx) => outbox.write(tx, [late]));
    await relay.start();
    let heldBack: number;
    try {
      relay.notify();
      await new Promise((r) => setTimeout(r, 500));
      heldBack = sent.length;
    } finally {
      await earlyTx.close();
    }
    try {
      await waitFor(() => sent.length >= 2, { timeoutMs: 10_000, what: 'both published' });
    } finally {
      await relay.stop();
    }
    expect(heldBack).toBe(0);
    expect(sent.map((s) => s.message.id)).toEqual([early.id, late.id]);
    // Stored and published byte for byte as the producer serialised them (through the driver and Prisma).
    expect(sent.map((s) => s.message.value)).toEqual([JSON.stringify(early), JSON.stringify(late)]);
  });

  it('with NOTIFY, sleeps after publishing until the next commit instead of re-reading an empty outbox', async () => {
    const prefix = `ns${randomBytes(3).toString('hex')}`;
    const { sent, publisher } = recordingPublishers();
    let reads = 0;
    const relay = new OutboxRelay(prisma, publisher('raw'), {
      schema: SOURCE_SCHEMA,
      pollIntervalMs: 60_000,
      listen: (channel, onNotify) => connection.listen(channel, onNotify),
      transaction: (fn) => {
        reads++;
        return connection.transaction(fn);
      },
    });
    await relay.start();
    try {
      const event = (sequence: number) => outbox.event(ProbeRecorded, { subject: `${prefix}-s0`, sequence, amount: 1 });
      await prisma.$transaction((tx) => outbox.write(tx, [event(0)]));
      await waitFor(() => sent.length >= 1, { timeoutMs: 10_000, what: 'the first event published' });
      const readsAfterFirst = reads;
      // Quiet for 400 ms: nothing is held back, so no read until a NOTIFY (the poll is a minute away).
      await new Promise((r) => setTimeout(r, 400));
      expect(reads).toBe(readsAfterFirst);
      await prisma.$transaction((tx) => outbox.write(tx, [event(1)]));
      await waitFor(() => sent.length >= 2, { timeoutMs: 10_000, what: 'the second event published' });
    } finally {
      await relay.stop();
    }
  });

  it('looks at an empty outbox with one statement outside any transaction, and locks only to publish', async () => {
    const { sent, publisher } = recordingPublishers();
    const { relay, counts } = countingRelay(publisher('raw'), { pollIntervalMs: 50 });
    await relay.start();
    try {
      await waitFor(outboxEmpty, { timeoutMs: 10_000, what: 'rows of earlier tests published' });
      const [before, lookedBefore] = [counts.transactions, counts.statements];
      await new Promise((r) => setTimeout(r, 400));
      // About 8 polls in 400 ms: each a single statement, none a transaction.
      expect(counts.statements - lookedBefore).toBeGreaterThanOrEqual(4);
      expect(counts.transactions).toBe(before);
      const subject = `pk${randomBytes(3).toString('hex')}`;
      const event = outbox.event(ProbeRecorded, { subject, sequence: 0, amount: 1 });
      await prisma.$transaction((tx) => outbox.write(tx, [event]));
      await waitFor(() => sent.some((s) => s.message.id === event.id), { timeoutMs: 10_000, what: 'the event' });
      expect(counts.transactions).toBe(before + 1);
    } finally {
      await relay.stop();
    }
  });

  it("with NOTIFY, goes straight to the locked read when a commit's NOTIFY wakes it, without peeking first", async () => {
    const { sent, publisher } = recordingPublishers();
    const { relay, counts } = countingRelay(publisher('raw'), {
      pollIntervalMs: 60_000,
      listen: (channel, onNotify) => connection.listen(channel, onNotify),
    });
    await relay.start();
    try {
      await waitFor(outboxEmpty, { timeoutMs: 10_000, what: 'rows of earlier tests published' });
      await new Promise((r) => setTimeout(r, 100));
      const [peeksBefore, transactionsBefore] = [counts.statements, counts.transactions];
      const subject = `nt${randomBytes(3).toString('hex')}`;
      const event = outbox.event(ProbeRecorded, { subject, sequence: 0, amount: 1 });
      await prisma.$transaction((tx) => outbox.write(tx, [event]));
      await waitFor(() => sent.some((s) => s.message.id === event.id), { timeoutMs: 10_000, what: 'the event' });
      expect(counts.transactions).toBe(transactionsBefore + 1);
      expect(counts.statements).toBe(peeksBefore);
    } finally {
      await relay.stop();
    }
  });

  // Neither can draw a seq below the writer's: another part of the service (or another service's
  // schema on this database) busy in a long transaction that writes no outbox rows, and another
  // service's database on the same PostgreSQL (one server holds every database in tests, and may in
  // production). Each has an xid older than the writer's.
  const olderTransactions = [
    [
      'an older transaction of this database that writes no outbox rows',
      async () => openTransaction(connection, (query) => query('SELECT pg_current_xact_id()')),
    ],
    [
      'a transaction of another database on the same server',
      async () => {
        const elsewhere = await createTestDatabase('msg_relay_other');
        const other = new PostgresConnection(elsewhere.url);
        const open = await openTransaction(other, (query) => query('SELECT pg_current_xact_id()'));
        return {
          close: async () => {
            await open.close();
            await other.close();
            await elsewhere.drop();
          },
        };
      },
    ],
  ] as const;

  it.each(olderTransactions)('publishes while %s is open (only writers of the outbox hold rows back)', async (_what, openOlder) => {
    const prefix = `nw${randomBytes(3).toString('hex')}`;
    const { sent, publisher } = recordingPublishers();
    const relay = listeningRelay(publisher('raw'));
    const older = await openOlder();
    await relay.start();
    try {
      await prisma.$transaction((tx) =>
        outbox.write(tx, [outbox.event(ProbeRecorded, { subject: `${prefix}-s0`, sequence: 0, amount: 1 })]),
      );
      await waitFor(() => sent.some((s) => s.message.value.includes(`${prefix}-s0`)), {
        timeoutMs: 3_000,
        what: 'the event published while the older transaction is open',
      });
    } finally {
      await older.close();
      await relay.stop();
    }
  });

  it('with NOTIFY, holds rows back while a transaction holds the outbox for writing without an xid yet, and re-reads until it ends (which sends no NOTIFY)', async () => {
    const prefix = `hb${randomBytes(3).toString('hex')}`;
    const { sent, publisher } = recordingPublishers();
    const relay = listeningRelay(publisher('raw'));
    // What an INSERT looks like between taking its lock and drawing its xid (its seq may come
    // first): it may hold a seq below anything committed since, so nothing is ready.
    const writer = await openTransaction(connection, (query) =>
      query(`LOCK TABLE "${SOURCE_SCHEMA}".outbox_events IN ROW EXCLUSIVE MODE`),
    );
    await relay.start();
    let heldBack: number;
    try {
      await prisma.$transaction((tx) =>
        outbox.write(tx, [outbox.event(ProbeRecorded, { subject: `${prefix}-s0`, sequence: 0, amount: 1 })]),
      );
      await new Promise((r) => setTimeout(r, 300));
      heldBack = sent.length;
      await writer.close();
      await waitFor(() => sent.length >= 1, { timeoutMs: 5_000, what: 'the held-back event published' });
    } finally {
      await writer.close();
      await relay.stop();
    }
    expect(heldBack).toBe(0);
  });

  it('rolls back a batch whose publish hangs past the transaction timeout, and publishes it again', async () => {
    const prefix = `to${randomBytes(3).toString('hex')}`;
    const sent: string[] = [];
    let calls = 0;
    const publisher: Publisher = {
      deliversInProcess: false,
      async publish(messages) {
        // The first publish hangs well past the relay's transaction timeout.
        if (++calls === 1) await new Promise((r) => setTimeout(r, 1_500));
        sent.push(...messages.map((m) => m.id));
      },
      async check() {},
      async close() {},
    };
    const relay = new OutboxRelay(prisma, publisher, {
      schema: SOURCE_SCHEMA,
      pollIntervalMs: 50,
      transactionTimeoutMs: 300,
      initialBackoffMs: 50,
      transaction: (fn) => connection.transaction(fn),
    });
    const events = [0, 1, 2].map((sequence) => outbox.event(ProbeRecorded, { subject: `${prefix}-s0`, sequence, amount: 1 }));
    await prisma.$transaction((tx) => outbox.write(tx, events));
    await relay.start();
    try {
      await waitFor(async () => calls >= 2 && (await outboxEmpty()), { timeoutMs: 20_000, what: 'republished after the timeout' });
      expect(relay.status().consecutiveFailures).toBe(0);
      // Let the hung first attempt finish: its late DELETE must be refused, not run elsewhere.
      await new Promise((r) => setTimeout(r, 1_500));
    } finally {
      await relay.stop();
    }
    expect(sent.slice(0, 3)).toEqual(events.map((e) => e.id));
    expect(new Set(sent)).toEqual(new Set(events.map((e) => e.id)));
  });

  it('writeIf: writes the events with the guarding change in one statement, and nothing when the guard changes no row', async () => {
    const subject = `wi${randomBytes(3).toString('hex')}`;
    await connection.query(`INSERT INTO ${SOURCE_SCHEMA}.balances (subject) VALUES ($1)`, [subject]);
    const guard = (from: number) => ({
      sql: `UPDATE ${SOURCE_SCHEMA}.balances SET last_sequence = $2 + 1 WHERE subject = $1 AND last_sequence = $2 RETURNING 1`,
      params: [subject, from],
    });
    const event = (sequence: number) => outbox.event(ProbeRecorded, { subject, sequence, amount: 1 });
    const notified: string[] = [];
    const unlisten = await connection.listen(`${SOURCE_SCHEMA}_outbox`, (payload) => notified.push(payload));
    try {
      const first = [event(0), event(1)];
      expect(await outbox.writeIf(prisma, guard(-1), first)).toBe(true);
      // The guard's state moved on: the same guard (a lost claim) writes nothing.
      expect(await outbox.writeIf(prisma, guard(-1), [event(2)])).toBe(false);
      const rows = await connection.query<{ id: string }>(
        `SELECT id FROM ${SOURCE_SCHEMA}.outbox_events WHERE envelope->'data'->>'subject' = $1 ORDER BY seq`,
        [subject],
      );
      expect(rows.map((r) => r.id)).toEqual(first.map((e) => e.id));
      const [state] = await connection.query<{ last_sequence: number }>(
        `SELECT last_sequence FROM ${SOURCE_SCHEMA}.balances WHERE subject = $1`,
        [subject],
      );
      expect(state.last_sequence).toBe(0);
      await waitFor(async () => notified.includes('2'), { timeoutMs: 10_000, what: 'the NOTIFY of the written rows' });
    } finally {
      await unlisten();
      await connection.query(`DELETE FROM ${SOURCE_SCHEMA}.outbox_events WHERE envelope->'data'->>'subject' = $1`, [subject]);
    }
  });
});
