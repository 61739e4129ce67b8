import { createEnvelope, ProbeRecorded } from '@genasset/contracts';
import { inSpan, startTracing } from '@genasset/observability';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Outbox } from './outbox';

/** The rows Outbox.write sends to the database, captured from its one statement (one JSON array of rows). */
function capture(): {
  tx: { $executeRawUnsafe(sql: string, json: string): Promise<number> };
  rows: () => { envelope: { trace?: Record<string, string> }; headers?: Record<string, string> }[];
} {
  let json = '[]';
  return {
    tx: {
      $executeRawUnsafe: async (_sql: string, rows: string) => {
        json = rows;
        return 1;
      },
    },
    rows: () =>
      JSON.parse(json) as {
        envelope: { trace?: Record<string, string> };
        headers?: Record<string, string>;
      }[],
  };
}

describe('Outbox: trace context stored with the row', () => {
  const envelope = () =>
    createEnvelope(ProbeRecorded, { subject: 's', sequence: 0, amount: 1 }, { producer: 'test' });
  const outbox = new Outbox({ schema: 'probe', producer: 'test' });

  it('adds nothing while tracing is off', async () => {
    const { tx, rows } = capture();
    await outbox.write(tx as never, [envelope()]);
    expect(rows()[0].envelope.trace).toBeUndefined();
    // Events carry no headers: the envelope is the one place for the trace context.
    expect(rows()[0].headers).toBeUndefined();
  });

  it("stamps the writer's span context into the envelope", async () => {
    const tracing = startTracing({
      serviceName: 't',
      env: {},
      spanProcessor: new SimpleSpanProcessor(new InMemorySpanExporter()),
    });
    try {
      const { tx, rows } = capture();
      const spanId = await inSpan('request', {}, async (span) => {
        await outbox.write(tx as never, [envelope(), envelope()]);
        return span!.spanContext().spanId;
      });
      for (const row of rows()) {
        expect(row.envelope.trace?.traceparent).toMatch(new RegExp(`^00-[0-9a-f]{32}-${spanId}-01$`));
      }
      // Outside any span: nothing to carry.
      const outside = capture();
      await outbox.write(outside.tx as never, [envelope()]);
      expect(outside.rows()[0].envelope.trace).toBeUndefined();
    } finally {
      await tracing.shutdown();
    }
  });
});
