import { randomBytes } from 'node:crypto';
import { Kafka, logLevel, type Consumer, type Producer } from 'kafkajs';
import { createEnvelope, JobSucceededReported, TOPICS, type EventEnvelope } from '@genasset/contracts';
import { testServices } from '@genasset/testing';

interface WorkRequest {
  jobId: string;
  tenant: { projectId: string };
  input: Record<string, unknown>;
}

/**
 * Stands in for the inference-worker (built later): reads `job.work.requested`
 * of one project from the real broker and reports success with the output
 * `answer` gives, exactly as an executor publishes its reports.
 */
export class FakeWorker {
  private consumer?: Consumer;
  private producer?: Producer;

  constructor(
    private readonly projectId: string,
    private readonly answer: (input: Record<string, unknown>) => Record<string, unknown>,
  ) {}

  async start(): Promise<this> {
    const kafka = new Kafka({
      brokers: testServices().kafkaBrokers,
      clientId: 'fake-worker',
      logLevel: logLevel.NOTHING,
    });
    this.producer = kafka.producer();
    await this.producer.connect();
    this.consumer = kafka.consumer({
      groupId: `fake-worker-${randomBytes(4).toString('hex')}`,
      maxWaitTimeInMs: 100,
    });
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: [TOPICS.jobWork], fromBeginning: true });
    await this.consumer.run({
      eachMessage: async ({ message }) => {
        const envelope = JSON.parse(message.value!.toString()) as EventEnvelope<WorkRequest>;
        if (envelope.type !== 'job.work.requested' || envelope.data.tenant.projectId !== this.projectId)
          return;
        const report = createEnvelope(
          JobSucceededReported,
          { jobId: envelope.data.jobId, output: this.answer(envelope.data.input) },
          { producer: 'fake-worker' },
        );
        await this.producer!.send({
          topic: TOPICS.jobReports,
          messages: [{ key: report.key, value: JSON.stringify(report) }],
        });
      },
    });
    return this;
  }

  async stop(): Promise<void> {
    await this.consumer?.disconnect();
    await this.producer?.disconnect();
  }
}
