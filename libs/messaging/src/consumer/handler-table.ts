import type { EventEnvelope } from '@genasset/contracts';
import type { MessageHandler } from '@nestjs/microservices';
import { isObservable, lastValueFrom } from 'rxjs';
import type { EventContext } from './event-context';

/** One `@OnEvent`/`@EventPattern` method, bound to its consumer. */
export interface BoundHandler {
  readonly consumer: string;
  readonly topic: string;
  /** Undefined: every type not claimed by a typed handler of the same consumer and topic. */
  readonly types?: ReadonlySet<string>;
  readonly batch: boolean;
  /** Undefined: every routed event; else only those it accepts (the others are skipped unmarked). */
  readonly when?: (envelope: EventEnvelope) => boolean;
  /** Runs the Nest handler (pipes, interceptors, filters included) and waits for it. */
  invoke(payload: unknown, ctx: EventContext<unknown>): Promise<void>;
}

interface HandlerExtras {
  consumer?: unknown;
  types?: unknown;
  batch?: unknown;
  when?: unknown;
}

/**
 * Which handler each consumer runs for a (topic, event type). Built once when
 * the transport starts; every ambiguity fails startup instead of surfacing as
 * a silently skipped or doubly applied event in production.
 */
export class HandlerTable {
  private readonly byConsumer = new Map<string, Map<string, BoundHandler[]>>();

  private constructor(handlers: readonly BoundHandler[]) {
    for (const h of handlers) {
      const topics = this.byConsumer.get(h.consumer) ?? new Map<string, BoundHandler[]>();
      this.byConsumer.set(h.consumer, topics);
      topics.set(h.topic, [...(topics.get(h.topic) ?? []), h]);
    }
  }

  static build(
    handlers: readonly { pattern: string; handler: MessageHandler }[],
    registeredConsumers: ReadonlySet<string>,
    knownTopics: ReadonlySet<string>,
  ): HandlerTable {
    const bound = handlers.map(({ pattern, handler }) => bind(pattern, handler, registeredConsumers, knownTopics));
    const table = new HandlerTable(bound);
    table.checkAmbiguity();
    return table;
  }

  consumers(): string[] {
    return [...this.byConsumer.keys()];
  }

  topicsOf(consumer: string): string[] {
    return [...(this.byConsumer.get(consumer)?.keys() ?? [])];
  }

  route(consumer: string, topic: string, type: string): BoundHandler | undefined {
    const candidates = this.byConsumer.get(consumer)?.get(topic) ?? [];
    return candidates.find((h) => h.types?.has(type)) ?? candidates.find((h) => !h.types);
  }

  private checkAmbiguity(): void {
    for (const [consumer, topics] of this.byConsumer) {
      for (const [topic, handlers] of topics) {
        const catchAll = handlers.filter((h) => !h.types);
        if (catchAll.length > 1) {
          throw new Error(`consumer ${consumer} has ${catchAll.length} handlers for every type on ${topic}; give them disjoint \`types\``);
        }
        const claimed = new Set<string>();
        for (const h of handlers) {
          for (const type of h.types ?? []) {
            if (claimed.has(type)) throw new Error(`consumer ${consumer} has two handlers for ${type} on ${topic}`);
            claimed.add(type);
          }
        }
      }
    }
  }
}

function bind(
  pattern: string,
  handler: MessageHandler,
  registeredConsumers: ReadonlySet<string>,
  knownTopics: ReadonlySet<string>,
): BoundHandler {
  if (!handler.isEventHandler) {
    throw new Error(`@MessagePattern(${pattern}) is not supported by the messaging transport: events only (@OnEvent)`);
  }
  const extras = (handler.extras ?? {}) as HandlerExtras;
  const consumer = extras.consumer;
  if (typeof consumer !== 'string' || consumer === '') {
    throw new Error(`handler for ${pattern} names no consumer: use @OnEvent(topic, { consumer: '<service>' })`);
  }
  if (!registeredConsumers.has(consumer)) {
    throw new Error(
      `handler for ${pattern} runs for consumer ${consumer}, which no MessagingModule.forService({ consumer: '${consumer}', … }) registered`,
    );
  }
  if (!knownTopics.has(pattern)) throw new Error(`handler of ${consumer} listens to unknown topic ${pattern}`);
  const types = extras.types;
  if (types !== undefined && (!Array.isArray(types) || types.length === 0 || types.some((t) => typeof t !== 'string'))) {
    throw new Error(`handler of ${consumer} for ${pattern}: \`types\` must be a non-empty list of event types`);
  }
  if (extras.when !== undefined && typeof extras.when !== 'function') {
    throw new Error(`handler of ${consumer} for ${pattern}: \`when\` must be a function of the envelope`);
  }
  return {
    consumer,
    topic: pattern,
    types: types ? new Set(types as string[]) : undefined,
    batch: extras.batch === true,
    when: extras.when as BoundHandler['when'],
    async invoke(payload, ctx) {
      const result: unknown = await handler(payload, ctx);
      // Nest hands errors back as an erroring Observable (after its exception filter).
      if (isObservable(result)) await lastValueFrom(result, { defaultValue: undefined });
    },
  };
}
