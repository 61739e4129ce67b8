import { randomBytes } from 'node:crypto';
import { PostgresConnection } from '@genasset/persistence';
import { createTestDatabase } from '@genasset/testing';
import { startProbeApp } from './support/probe-app';
import { migrateProbe, SINK_SCHEMA } from './support/probe-schema';
import { CONTRACT_RETRY, transportContract } from './support/transport-contract';

// Real processes and a real broker on a 2-core machine: give them time.
jest.setTimeout(180_000);

// Embedded-mode transport on a PostgreSQL test database (PGlite itself needs
// --experimental-vm-modules under Jest; embedded-pglite.int-spec.ts runs the
// same flow on PGlite in a child process). Dead letters land in the table.
const inProcess = (consumerTransactions: 'prisma' | 'driver') => async () => {
  const prefix = `ip${randomBytes(3).toString('hex')}`;
  const db = await createTestDatabase('msg_inproc_contract');
  const connection = new PostgresConnection(db.url);
  await migrateProbe(connection);
  const attempts = new Map<string, number>();
  const settled = new Map<string, boolean[]>();
  const probe = await startProbeApp({
    connection,
    produce: true,
    consume: { consumer: 'probe-sink', prefix, attempts, settled },
    consumerTransactions,
    messaging: { transport: 'in-process', clientId: 'contract', retry: CONTRACT_RETRY },
    logger: false,
  });
  return {
    prefix,
    probe,
    connection,
    attempts,
    settled,
    async deadLetters() {
      const rows = await connection.query<{ event_id: string | null; reason: string }>(
        `SELECT event_id, reason FROM ${SINK_SCHEMA}.dead_letters ORDER BY id`,
      );
      return rows.map((r) => ({ key: null, eventId: r.event_id ?? undefined, reason: r.reason }));
    },
    async close() {
      await probe.close();
      await db.drop();
    },
  };
};

transportContract('in-process', inProcess('prisma'));
// The same contract with the consumer's transactions on the driver (`consumerTransactions:
// 'driver'`): the handler's effect, inbox marks, retries and dead letters behave the same.
transportContract('in-process, driver transactions', inProcess('driver'));
