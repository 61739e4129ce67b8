import { errorMessage } from '@genasset/contracts';
import { Injectable } from '@nestjs/common';
import type { ProcessorStats } from '../consumer/event-processor';
import type { OutboxBacklog } from '../outbox/outbox-store';
import type { OutboxRelay, RelayStatus } from '../outbox/outbox-relay';

export interface MessagingSnapshot {
  relays: Record<string, RelayStatus & { backlog?: OutboxBacklog; backlogError?: string }>;
  consumers: Record<string, ProcessorStats>;
}

/**
 * Everything messaging knows about itself, for metrics and diagnostics:
 * per schema the relay's state and outbox backlog (size, age of the oldest
 * row), per consumer the applied / duplicate / retried / dead-lettered counts.
 */
@Injectable()
export class MessagingMonitor {
  private readonly relayList: OutboxRelay[] = [];
  private consumerStats: () => Record<string, ProcessorStats> = () => ({});

  addRelay(relay: OutboxRelay): void {
    this.relayList.push(relay);
  }

  setConsumerStats(source: () => Record<string, ProcessorStats>): void {
    this.consumerStats = source;
  }

  relays(): readonly OutboxRelay[] {
    return this.relayList;
  }

  async snapshot(): Promise<MessagingSnapshot> {
    const relays: MessagingSnapshot['relays'] = {};
    for (const relay of this.relayList) {
      try {
        relays[relay.schema] = { ...relay.status(), backlog: await relay.backlog() };
      } catch (error) {
        relays[relay.schema] = { ...relay.status(), backlogError: errorMessage(error) };
      }
    }
    return { relays, consumers: this.consumerStats() };
  }
}
