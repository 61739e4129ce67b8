import { Kafka, logLevel, type Producer } from 'kafkajs';
import { createEnvelope, JobSucceededReported, TOPICS } from '@genasset/contracts';
import { testServices, TopicReader, type TopicMessage } from '@genasset/testing';

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
  private reader?: TopicReader<WorkRequest>;
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
    this.reader = await new TopicReader<WorkRequest>(TOPICS.jobWork, {
      clientId: 'fake-worker',
      onMessage: (message) => this.execute(message),
    }).start();
    return this;
  }

  private async execute({ envelope }: TopicMessage<WorkRequest>): Promise<void> {
    if (envelope.type !== 'job.work.requested' || envelope.data.tenant.projectId !== this.projectId) return;
    const report = createEnvelope(
      JobSucceededReported,
      { jobId: envelope.data.jobId, output: this.answer(envelope.data.input) },
      { producer: 'fake-worker' },
    );
    await this.producer!.send({
      topic: TOPICS.jobReports,
      messages: [{ key: report.key, value: JSON.stringify(report) }],
    });
  }

  async stop(): Promise<void> {
    await this.reader?.stop();
    await this.producer?.disconnect();
  }
}
