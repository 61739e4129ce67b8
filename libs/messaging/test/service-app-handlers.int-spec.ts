import { randomBytes } from 'node:crypto';
import { ProbeRecorded } from '@genasset/contracts';
import { PostgresConnection } from '@genasset/persistence';
import { createTestDatabase, waitFor } from '@genasset/testing';
import { InProcessBus } from '../src';
import { startProbeApp, type ProbeApp } from './support/probe-app';
import { migrateProbe, SINK_SCHEMA } from './support/probe-schema';
import { CONTRACT_RETRY } from './support/transport-contract';
import { writeBatch } from './support/probe-writer';

jest.setTimeout(120_000);

// Every service runs its handlers in an app built by createHttpApp, whose global validation pipe
// and error filter are for HTTP requests. Events are validated by the consumer pipeline against
// the event registry; the handler must get them as validated, not re-checked as request bodies.
describe('event handlers in a service app', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let connection: PostgresConnection;
  let probe: ProbeApp;
  const prefix = `sa${randomBytes(3).toString('hex')}`;
  const attempts = new Map<string, number>();

  beforeAll(async () => {
    db = await createTestDatabase('msg_service_app');
    connection = new PostgresConnection(db.url);
    await migrateProbe(connection);
    probe = await startProbeApp({
      connection,
      produce: true,
      consume: { consumer: 'probe-sink', prefix, attempts },
      consumerTransactions: 'driver',
      messaging: { transport: 'in-process', clientId: 'service-app', retry: CONTRACT_RETRY },
      httpApp: true,
    });
  });

  afterAll(async () => {
    await probe?.close();
    await db?.drop();
  });

  it('applies an event carrying fields this consumer does not know (payloads are extensible)', async () => {
    const event = probe.outbox.event(ProbeRecorded, { subject: `${prefix}-x`, sequence: 0, amount: 3 });
    const extended = { ...event, schemaHint: 'v2', data: { ...event.data, note: 'added later' } };
    await writeBatch(probe.sourceClient, probe.outbox, [extended]);
    await waitFor(
      async () =>
        (await connection.query(`SELECT 1 FROM ${SINK_SCHEMA}.ledger WHERE event_id = $1`, [event.id]))
          .length === 1,
      { timeoutMs: 30_000, what: 'the extended event applied' },
    );
    expect(attempts.get(event.id)).toBe(1);
    expect(await connection.query(`SELECT event_id FROM ${SINK_SCHEMA}.dead_letters`)).toEqual([]);
  });

  it('dead-letters an event holding text no handler can store at once, naming where it is', async () => {
    // Our outboxes (jsonb) cannot even hold such an event: this is what another producer could send.
    const event = probe.outbox.event(ProbeRecorded, {
      subject: `${prefix}-nul\u0000`,
      sequence: 0,
      amount: 1,
    });
    await probe.app
      .get(InProcessBus)
      .publish([
        {
          id: event.id,
          topic: ProbeRecorded.topic,
          key: prefix,
          value: JSON.stringify({ ...event, key: prefix }),
        },
      ]);
    const letter = await waitFor(
      async () =>
        (
          await connection.query<{ reason: string }>(
            `SELECT reason FROM ${SINK_SCHEMA}.dead_letters WHERE event_id = $1`,
            [event.id],
          )
        )[0],
      { timeoutMs: 30_000, what: 'the dead letter' },
    );
    expect(letter.reason).toBe(
      'data.subject must not contain NUL characters (U+0000) or unpaired UTF-16 surrogates',
    );
    // Refused before any handler call, so not retried.
    expect(attempts.get(event.id)).toBeUndefined();
  });
});
