import { Logger } from '@nestjs/common';
import { Kafka, logLevel, type LogEntry } from 'kafkajs';
import { fixKafkaRequestQueue } from './request-queue-fix';

export interface KafkaSettings {
  readonly brokers: readonly string[];
  readonly clientId: string;
}

/**
 * The one place kafkajs is configured. kafkajs is unmaintained; everything
 * Kafka-specific lives in this folder so the client can be swapped
 * (`@platformatic/kafka` is the likely successor) without touching services.
 */
export function createKafka(settings: KafkaSettings): Kafka {
  fixKafkaRequestQueue();
  const logger = new Logger('kafkajs');
  return new Kafka({
    clientId: settings.clientId,
    brokers: [...settings.brokers],
    connectionTimeout: 3_000,
    requestTimeout: 30_000,
    retry: { initialRetryTime: 200, maxRetryTime: 5_000, retries: 5 },
    logLevel: logLevel.WARN,
    logCreator:
      () =>
      ({ level, log }: LogEntry) => {
        const { message, ...rest } = log;
        const line = `${message} ${JSON.stringify(rest)}`;
        if (level <= logLevel.ERROR) logger.error(line);
        else logger.warn(line);
      },
  });
}
