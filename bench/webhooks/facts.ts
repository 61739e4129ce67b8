import { createEnvelope, JobSucceeded, prefixedId, type JobLifecycleData } from '@genasset/contracts';
import { createKafka } from '@genasset/messaging';
import type { Message, Producer } from 'kafkajs';

export interface FactBatch {
  jobIds: string[];
  messages: Message[];
}

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
   * One batch of `count` facts, built but not sent: job-service's relay publishes envelopes it
   * serialised when it wrote them to its outbox, so building them is not part of publishing.
   * `timed`: job ids start with `job_L`, so the receiver records when they arrive.
   */
  static prepare(tenancy: Tenancy, count: number, offset: number, timed = false): FactBatch {
    const jobIds: string[] = [];
    const messages: Message[] = [];
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
      jobIds.push(data.jobId);
    }
    return { jobIds, messages };
  }

  /** Sends a prepared batch; resolves with [jobId, publishedAt] pairs once the broker acknowledged. */
  async send(batch: FactBatch): Promise<[string, number][]> {
    const publishedAt = Date.now();
    await this.producer.send({ topic: JobSucceeded.topic, acks: -1, messages: batch.messages });
    return batch.jobIds.map((jobId) => [jobId, publishedAt]);
  }

  async close(): Promise<void> {
    await this.producer.disconnect();
  }
}
