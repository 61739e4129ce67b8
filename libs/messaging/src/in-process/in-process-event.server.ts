import type { ConsumerRegistry } from '../consumer/consumer-registry';
import { EventProcessor } from '../consumer/event-processor';
import { EventServer, type EventServerSettings } from '../consumer/event-server';
import type { HandlerTable } from '../consumer/handler-table';
import type { InProcessBus } from './in-process-bus';
import { TableDeadLetterSink } from './table-dead-letter.sink';

/**
 * NestJS transport strategy for embedded mode: the same handlers, inbox,
 * retries and dead-lettering as on Kafka, fed by the in-process bus instead of
 * a broker.
 */
export class InProcessEventServer extends EventServer {
  private readonly stopping = new AbortController();

  constructor(
    registry: ConsumerRegistry,
    private readonly bus: InProcessBus,
    settings: EventServerSettings,
  ) {
    super(registry, settings);
  }

  protected async start(table: HandlerTable): Promise<void> {
    for (const name of table.consumers()) {
      const binding = this.registry.get(name);
      const processor = new EventProcessor(binding, table, new TableDeadLetterSink(binding.client, binding.schema), this.processorOptions());
      this.processors.set(name, processor);
      this.bus.subscribe(name, table.topicsOf(name), (records) => processor.process(records, { signal: this.stopping.signal }));
    }
    this.bus.openForDelivery();
  }

  async close(): Promise<void> {
    this.stopping.abort();
    await this.bus.close();
  }
}
