import { allTopics } from '@genasset/contracts';
import { Logger } from '@nestjs/common';
import { Server, type CustomTransportStrategy, type MessageHandler } from '@nestjs/microservices';
import type { ConsumerRegistry } from './consumer-registry';
import type { EventProcessor, ProcessorOptions, ProcessorStats } from './event-processor';
import { HandlerTable } from './handler-table';

/** Settings shared by both transports' consumer side. */
export type EventServerSettings = Omit<ProcessorOptions, 'logger'> & { readonly knownTopics?: readonly string[] };

/**
 * Base of both transport strategies: collects the `@OnEvent`/`@EventPattern`
 * handlers Nest registers, validates them against the consumer registry when
 * the transport starts, and leaves delivery to the subclass.
 */
export abstract class EventServer extends Server implements CustomTransportStrategy {
  protected override readonly logger = new Logger(this.constructor.name);
  private readonly registrations: { pattern: string; handler: MessageHandler }[] = [];
  protected readonly processors = new Map<string, EventProcessor>();
  protected table?: HandlerTable;

  constructor(
    protected readonly registry: ConsumerRegistry,
    protected readonly settings: EventServerSettings,
  ) {
    super();
  }

  /**
   * Nest chains every handler of one pattern and runs them all for each
   * message; here handlers of different consumers must run in their own
   * transactions (and consumer groups), so each is kept on its own.
   */
  override addHandler(pattern: unknown, callback: MessageHandler, isEventHandler = false, extras: Record<string, unknown> = {}): void {
    const normalized = this.normalizePattern(pattern as string);
    callback.isEventHandler = isEventHandler;
    callback.extras = extras;
    this.registrations.push({ pattern: normalized, handler: callback });
    if (!this.messageHandlers.has(normalized)) this.messageHandlers.set(normalized, callback);
  }

  listen(callback: (error?: unknown) => void): void {
    try {
      this.table = HandlerTable.build(this.registrations, this.registry.names(), new Set(this.settings.knownTopics ?? allTopics()));
    } catch (error) {
      callback(error);
      return;
    }
    this.start(this.table).then(
      () => callback(),
      (error: unknown) => callback(error),
    );
  }

  /** Per consumer: events applied, duplicates skipped, retries, dead letters. */
  stats(): Record<string, ProcessorStats> {
    return Object.fromEntries([...this.processors].map(([name, p]) => [name, { ...p.stats }]));
  }

  /** Consumer name → the topics it subscribes to (empty before the transport started). For lag metrics. */
  subscriptions(): Record<string, readonly string[]> {
    const table = this.table;
    return table ? Object.fromEntries(table.consumers().map((c) => [c, table.topicsOf(c)])) : {};
  }

  protected processorOptions(): ProcessorOptions {
    return { ...this.settings, logger: this.logger };
  }

  protected abstract start(table: HandlerTable): Promise<void>;
  abstract override close(): Promise<void>;

  override on(): never {
    throw new Error(`${this.constructor.name} emits no events`);
  }

  override unwrap<T>(): T {
    return this as unknown as T;
  }
}
