import { createHash, randomBytes } from 'node:crypto';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import { ASSETS_API, JOBS_API } from '@genasset/contracts';
// Test-only exception to the service boundary: batch downloads are tested against the real
// owner of JOBS_API, composed in one process as apps/platform does. Production code never imports it.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { JOB_SCHEMA, JOB_SERVICE, JobServiceModule } from '@genasset/service-job';
import {
  startServiceHarness,
  testServices,
  waitFor,
  type HarnessOptions,
  type ServiceHarness,
} from '@genasset/testing';
import { ASSET_SCHEMA, ASSET_SERVICE, AssetServiceModule } from '../../src';

type ServiceDescriptor = HarnessOptions['services'][number];

export const ASSET_DESCRIPTOR: ServiceDescriptor = {
  name: ASSET_SERVICE,
  schema: ASSET_SCHEMA,
  module: AssetServiceModule,
  provides: [ASSETS_API],
};
export const JOB_DESCRIPTOR: ServiceDescriptor = {
  name: JOB_SERVICE,
  schema: JOB_SCHEMA,
  module: JobServiceModule,
  provides: [JOBS_API],
};

/** asset-service and job-service in one process (as apps/platform runs them) on the real PostgreSQL, broker and S3 server. */
export function startDownloadHarness(
  env: Record<string, string> = {},
  transport?: 'kafka' | 'in-process',
): Promise<ServiceHarness> {
  return startServiceHarness({
    services: [ASSET_DESCRIPTOR, JOB_DESCRIPTOR],
    transport,
    env: { INTERNAL_API_TOKEN: `int_${randomBytes(16).toString('base64url')}`, ...env },
  });
}

export { unzip, type ZipEntry } from '@genasset/testing';

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export interface LoggedFact {
  key: string;
  type: string;
  data: Record<string, any>;
}

/** Every message of one topic from the beginning, by a fresh consumer group. The broker is shared: select by key. */
export class TopicLog {
  private readonly facts: LoggedFact[] = [];
  private consumer?: Consumer;

  constructor(private readonly topic: string) {}

  async start(): Promise<this> {
    const kafka = new Kafka({
      brokers: testServices().kafkaBrokers,
      clientId: 'asset-topic-log',
      logLevel: logLevel.NOTHING,
    });
    this.consumer = kafka.consumer({
      groupId: `asset-log-${randomBytes(4).toString('hex')}`,
      maxWaitTimeInMs: 100,
    });
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: [this.topic], fromBeginning: true });
    await this.consumer.run({
      eachMessage: async ({ message }) => {
        const envelope = JSON.parse(message.value!.toString());
        this.facts.push({ key: message.key?.toString() ?? '', type: envelope.type, data: envelope.data });
      },
    });
    return this;
  }

  of(key: string, type?: string): LoggedFact[] {
    return this.facts.filter((f) => f.key === key && (!type || f.type === type));
  }

  waitFor(key: string, type: string): Promise<LoggedFact> {
    return waitFor(() => this.of(key, type)[0], {
      timeoutMs: 30_000,
      what: `${type} for ${key} on ${this.topic}`,
    });
  }

  async stop(): Promise<void> {
    await this.consumer?.disconnect();
  }
}
