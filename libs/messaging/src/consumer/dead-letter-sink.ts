import type { InboundRecord } from '../core/messages';

export interface DeadLetter {
  readonly consumer: string;
  readonly record: InboundRecord;
  readonly reason: string;
  /** Known when the envelope parsed (or at least had a string `id`). */
  readonly eventId?: string;
  /** Likewise, its `type`. */
  readonly eventType?: string;
}

/**
 * Where rejected messages go: `<topic>.dlt` on Kafka, the `dead_letters` table
 * in process. Must throw when it cannot store the letter, so the message is
 * not committed and comes back.
 */
export interface DeadLetterSink {
  deadLetter(letter: DeadLetter): Promise<void>;
}
