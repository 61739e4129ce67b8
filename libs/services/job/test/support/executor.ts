import { Kafka, logLevel, type Producer } from 'kafkajs';
import {
  createEnvelope,
  JobFailedReported,
  JobProgressReported,
  JobSucceededReported,
  TOPICS,
  type EventEnvelope,
  type JobRunningStatus,
} from '@genasset/contracts';
import { testServices } from '@genasset/testing';

/** Publishes reports to `job.reports.v1` exactly as an executor does: envelope as value, jobId as key. */
export class FakeExecutor {
  private producer?: Producer;

  async start(): Promise<this> {
    const kafka = new Kafka({
      brokers: testServices().kafkaBrokers,
      clientId: 'fake-executor',
      logLevel: logLevel.NOTHING,
    });
    this.producer = kafka.producer();
    await this.producer.connect();
    return this;
  }

  progress(jobId: string, status: JobRunningStatus, progress: number): Promise<EventEnvelope> {
    return this.send(
      createEnvelope(JobProgressReported, { jobId, status, progress }, { producer: 'fake-executor' }),
    );
  }

  succeeded(jobId: string, output: Record<string, unknown>): Promise<EventEnvelope> {
    return this.send(createEnvelope(JobSucceededReported, { jobId, output }, { producer: 'fake-executor' }));
  }

  failed(jobId: string, reason: string): Promise<EventEnvelope> {
    return this.send(createEnvelope(JobFailedReported, { jobId, reason }, { producer: 'fake-executor' }));
  }

  /** Sends an envelope as it is (also to send one twice: a redelivery). */
  async send(envelope: EventEnvelope): Promise<EventEnvelope> {
    await this.producer!.send({
      topic: TOPICS.jobReports,
      messages: [{ key: envelope.key, value: JSON.stringify(envelope) }],
    });
    return envelope;
  }

  async stop(): Promise<void> {
    await this.producer?.disconnect();
  }
}
