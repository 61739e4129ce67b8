import { deadLetterTopic } from '@genasset/contracts';
import { HEADERS } from '../core/messages';
import type { DeadLetter, DeadLetterSink } from '../consumer/dead-letter-sink';
import { countDeadLetter } from '../metrics/messaging.metrics';
import type { KafkaPublisher } from './kafka-publisher';

/**
 * Dead letters go to `<topic>.dlt` with the original key, bytes and headers,
 * plus why and where from, and the event's id and type when known (events are
 * published without headers: `cli dlt replay --event-id` finds them by these)
 * — enough to inspect, fix and replay them.
 */
export class KafkaDeadLetterSink implements DeadLetterSink {
  constructor(private readonly publisher: KafkaPublisher) {}

  async deadLetter(letter: DeadLetter): Promise<void> {
    const { consumer, record, reason, eventId, eventType } = letter;
    await this.publisher.sendRaw(deadLetterTopic(record.topic), [
      {
        key: record.key,
        value: record.value,
        headers: {
          ...(eventId ? { [HEADERS.eventId]: eventId } : {}),
          ...(eventType ? { [HEADERS.eventType]: eventType } : {}),
          ...record.headers,
          [HEADERS.deadLetterReason]: reason.slice(0, 2_000),
          [HEADERS.deadLetterConsumer]: consumer,
          [HEADERS.originalTopic]: record.topic,
          [HEADERS.originalPartition]: String(record.partition),
          [HEADERS.originalOffset]: record.offset,
        },
      },
    ]);
    countDeadLetter(letter);
  }
}
