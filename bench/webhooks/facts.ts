import { createEnvelope, JobSucceeded, prefixedId, type JobLifecycleData } from '@genasset/contracts';
import { createKafka } from '@genasset/messaging';
import type { Producer } from 'kafkajs';

export interface Tenancy {
  teamId: string;
  projectIds: string[];
}

/**
 * Publishes `job.succeeded` generation facts as job-service's relay does
 * (envelope JSON, key = jobId, no headers: KafkaPublisher), spread over the projects.
 * Returns each job's publish time, for latency.
 */
export class FactProducer {
  private constructor(private readonly producer: Producer) {}

  static async connect(brokers: string[]): Promise<FactProducer> {
    const producer = createKafka({ brokers, clientId: 'bench-webhooks' }).producer({
      idempotent: false,
      allowAutoTopicCreation: false,
    });
    await producer.connect();
    return new FactProducer(producer);
  }

  /**
   * One batch of `count` facts; resolves with [jobId, publishedAt] pairs once the broker acknowledged.
   * `timed`: job ids start with `job_L`, so the receiver records when they arrive.
   */
  async publish(tenancy: Tenancy, count: number, offset: number, timed = false): Promise<[string, number][]> {
    const publishedAt = Date.now();
    const sent: [string, number][] = [];
    const messages = [];
    for (let i = 0; i < count; i++) {
      const data: JobLifecycleData = {
        jobId: timed ? `job_L${prefixedId('job').slice(4)}` : prefixedId('job'),
        jobType: 'inference',
        kind: 'generation',
        status: 'success',
        teamId: tenancy.teamId,
        projectId: tenancy.projectIds[(offset + i) % tenancy.projectIds.length],
      };
      const envelope = createEnvelope(JobSucceeded, data, { producer: 'job-service' });
      messages.push({ key: envelope.key, value: JSON.stringify(envelope) });
      sent.push([data.jobId, publishedAt]);
    }
    await this.producer.send({ topic: JobSucceeded.topic, acks: -1, messages });
    return sent;
  }

  async close(): Promise<void> {
    await this.producer.disconnect();
  }
}
