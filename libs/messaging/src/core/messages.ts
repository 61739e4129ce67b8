/** One event on its way out: what the relay hands a `Publisher`. */
export interface OutboundMessage {
  readonly id: string;
  /** Outbox seq: the publishing order (the in-process transport uses it as offset). */
  readonly seq?: string;
  readonly topic: string;
  /** The aggregate id: Kafka key, and the unit of ordering. */
  readonly key: string;
  /**
   * The envelope as JSON: it carries id, type, producer and trace context, so
   * events need no headers (structured mode; KafkaPublisher.publish).
   */
  readonly value: string;
}

/**
 * Where the relay sends outbox rows. `publish` resolves only once every message
 * is durably handed over (Kafka: acknowledged by all in-sync replicas;
 * in-process: every handler ran), because the relay deletes the rows afterwards.
 */
export interface Publisher {
  /**
   * True when publishing runs consumers' database transactions in this process
   * (in-process transport): the relay must then not hold a transaction open while
   * publishing, or it would wait on itself on a single-connection database (PGlite).
   */
  readonly deliversInProcess: boolean;
  publish(messages: readonly OutboundMessage[]): Promise<void>;
  /** Throws when the transport cannot currently deliver (readiness `broker`). */
  check(): Promise<void>;
  close(): Promise<void>;
}

/** One message as a consumer receives it, whatever the transport. */
export interface InboundRecord {
  readonly topic: string;
  readonly partition: number;
  /** Kafka offset, or the outbox seq on the in-process transport. */
  readonly offset: string;
  readonly key: string | null;
  readonly value: Buffer | string | null;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * Header names of dead letters (events themselves carry none). A consumer
 * still reads `traceparent` from a message's headers when its envelope has
 * no trace context (a producer outside this platform).
 */
export const HEADERS = {
  eventId: 'x-event-id',
  eventType: 'x-event-type',
  deadLetterReason: 'x-dead-letter-reason',
  deadLetterConsumer: 'x-dead-letter-consumer',
  originalTopic: 'x-original-topic',
  originalPartition: 'x-original-partition',
  originalOffset: 'x-original-offset',
} as const;
