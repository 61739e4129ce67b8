import { validateEnvelope, type EventDefinition, type EventEnvelope, errorMessage, sleep } from '@genasset/contracts';
import type { LoggerService } from '@nestjs/common';
import { backoffDelay, type RetryPolicy } from '../core/backoff';
import type { InboundRecord } from '../core/messages';
import type { TransactionalClient } from '../core/sql-client';
import { ChunkSizer } from './chunk-sizer';
import type { DeadLetterSink } from './dead-letter-sink';
import { EventContext, type SettledCallback } from './event-context';
import type { BoundHandler, HandlerTable } from './handler-table';
import { Inbox } from './inbox';

/** A consumer and the database its effects commit to. */
export interface ConsumerBinding {
  readonly consumer: string;
  readonly schema: string;
  readonly client: TransactionalClient;
}

export interface ProcessorOptions {
  readonly retry: RetryPolicy;
  /** Events applied per database transaction on the happy path, at most. */
  readonly maxEventsPerTransaction: number;
  /**
   * How long one consumer transaction should take: chunks of costly events get smaller
   * (down to one event) so that each commits, and is seen, this soon (chunk-sizer.ts).
   */
  readonly transactionBudgetMs: number;
  readonly transactionTimeoutMs: number;
  readonly registry: ReadonlyMap<string, EventDefinition>;
  readonly logger: LoggerService;
  /** Milliseconds of a monotonic clock (tests); `performance.now` by default. */
  readonly now?: () => number;
}

export interface ProcessHooks {
  /** Called once the records up to and including `last` are durably handled (commit the offset here). */
  committed?(last: InboundRecord): Promise<void>;
  /** False when the transport wants processing to stop early (shutdown, partition revoked). */
  running?(): boolean;
  /** Aborts retry backoffs at shutdown; the message is then left uncommitted. */
  signal?: AbortSignal;
}

export interface ProcessorStats {
  applied: number;
  duplicates: number;
  retried: number;
  deadLettered: number;
}

interface Work {
  readonly record: InboundRecord;
  readonly envelope: EventEnvelope;
  readonly handler: BoundHandler;
}

/** The `id` and `type` of a message that failed validation, when it is JSON that has them as strings. */
function peekIdentity(value: InboundRecord['value']): { eventId?: string; eventType?: string } {
  try {
    const parsed: unknown = JSON.parse(typeof value === 'string' ? value : (value?.toString('utf8') ?? ''));
    if (parsed === null || typeof parsed !== 'object') return {};
    const { id, type } = parsed as { id?: unknown; type?: unknown };
    return {
      ...(typeof id === 'string' ? { eventId: id } : {}),
      ...(typeof type === 'string' ? { eventType: type } : {}),
    };
  } catch {
    return {};
  }
}

/** A `when` that throws accepts the event: the handler then decides, with retries and dead-lettering. */
function accepts(handler: BoundHandler, envelope: EventEnvelope): boolean {
  if (!handler.when) return true;
  try {
    return handler.when(envelope);
  } catch {
    return true;
  }
}

/** A handler threw: counts towards retry and dead-lettering (infrastructure errors do not). */
class HandlerFailure extends Error {
  constructor(
    readonly eventIds: readonly string[],
    readonly reason: unknown,
  ) {
    super(errorMessage(reason));
  }
}

/**
 * The transport-independent consumer pipeline: validate, dead-letter the
 * invalid, then apply the rest with the inbox mark in as few transactions as
 * possible. On the happy path a chunk of events is one transaction; when a
 * handler fails, the chunk is rolled back and redone one event per transaction,
 * so the others commit, the failing one is retried with backoff and finally
 * dead-lettered — in the partition's order, never blocking it. Database or
 * broker failures are not the handler's fault: they propagate, nothing is
 * committed, and the transport delivers the records again.
 */
export class EventProcessor {
  readonly stats: ProcessorStats = { applied: 0, duplicates: 0, retried: 0, deadLettered: 0 };
  private readonly inbox: Inbox;
  private readonly sizer: ChunkSizer;
  private readonly now: () => number;

  constructor(
    readonly binding: ConsumerBinding,
    private readonly table: HandlerTable,
    private readonly sink: DeadLetterSink,
    private readonly options: ProcessorOptions,
  ) {
    this.inbox = new Inbox(binding.schema);
    this.sizer = new ChunkSizer(options.maxEventsPerTransaction, options.transactionBudgetMs);
    this.now = options.now ?? (() => performance.now());
  }

  async process(records: readonly InboundRecord[], hooks: ProcessHooks = {}): Promise<void> {
    for (let i = 0; i < records.length; ) {
      if (hooks.running && !hooks.running()) return;
      const chunk = records.slice(i, i + this.sizer.size());
      const started = this.now();
      if (await this.processChunk(chunk, hooks.signal)) this.sizer.observe(chunk.length, this.now() - started);
      i += chunk.length;
      await hooks.committed?.(chunk[chunk.length - 1]);
    }
  }

  /** @returns whether the chunk went the happy path (one transaction, or none needed). */
  private async processChunk(chunk: readonly InboundRecord[], signal?: AbortSignal): Promise<boolean> {
    const work: Work[] = [];
    for (const record of chunk) {
      const check = validateEnvelope(record.value, record.topic, this.options.registry);
      if (!check.ok) {
        await this.deadLetter(record, check.reason, peekIdentity(record.value));
        continue;
      }
      const handler = this.table.route(this.binding.consumer, record.topic, check.envelope.type);
      // Types this consumer has no handler for are simply not its business, nor
      // are events its handler's `when` turns down.
      if (handler && accepts(handler, check.envelope))
        work.push({ record, envelope: check.envelope, handler });
    }
    if (work.length === 0) return true;

    let failed: HandlerFailure;
    try {
      await this.apply(work, 1);
      return true;
    } catch (error) {
      if (!(error instanceof HandlerFailure)) throw error;
      failed = error;
    }
    for (const item of work) {
      const alreadyTried = failed.eventIds.includes(item.envelope.id) ? failed : undefined;
      await this.applyAlone(item, alreadyTried, signal);
    }
    return false;
  }

  private async applyAlone(
    item: Work,
    previous: HandlerFailure | undefined,
    signal?: AbortSignal,
  ): Promise<void> {
    const { attempts, initialDelayMs, maxDelayMs } = this.options.retry;
    let lastFailure = previous;
    for (let attempt = previous ? 2 : 1; attempt <= attempts; attempt++) {
      if (attempt > 1) {
        this.logRetry(item, attempt - 1, lastFailure);
        await sleep(backoffDelay(attempt - 1, initialDelayMs, maxDelayMs), { signal });
        if (signal?.aborted) throw new Error('stopping: event left for redelivery');
        this.stats.retried++;
      }
      try {
        await this.apply([item], attempt);
        return;
      } catch (error) {
        if (!(error instanceof HandlerFailure)) throw error;
        lastFailure = error;
      }
    }
    await this.deadLetter(
      item.record,
      `handler of ${this.binding.consumer} failed ${attempts}x: ${errorMessage(lastFailure?.reason)}`,
      { eventId: item.envelope.id, eventType: item.envelope.type },
    );
  }

  /** One transaction: inbox marks for all, handlers for the fresh ones, in order. */
  private async apply(work: readonly Work[], attempt: number): Promise<void> {
    let applied = 0;
    const settled: SettledCallback[] = [];
    try {
      await this.binding.client.$transaction(
        async (tx) => {
          const fresh = await this.inbox.claim(
            tx,
            this.binding.consumer,
            work.map((w) => w.envelope.id),
          );
          // `delete` lets only the first of two copies in one batch through.
          const todo = work.filter((w) => fresh.delete(w.envelope.id));
          for (const run of runs(todo)) await this.invoke(run, tx, attempt, settled);
          applied = todo.length;
        },
        { timeout: this.options.transactionTimeoutMs, maxWait: 10_000 },
      );
    } catch (error) {
      this.settle(settled, false);
      throw error;
    }
    this.settle(settled, true);
    this.stats.applied += applied;
    this.stats.duplicates += work.length - applied;
  }

  private settle(callbacks: readonly SettledCallback[], committed: boolean): void {
    for (const callback of callbacks) {
      try {
        callback(committed);
      } catch (error) {
        this.options.logger.error(
          `${this.binding.consumer}: a settled callback failed: ${errorMessage(error)}`,
        );
      }
    }
  }

  private async invoke(
    run: readonly Work[],
    tx: unknown,
    attempt: number,
    settled: SettledCallback[],
  ): Promise<void> {
    const last = run[run.length - 1].record;
    const handler = run[0].handler;
    const ctx = new EventContext(
      tx,
      {
        consumer: this.binding.consumer,
        topic: last.topic,
        partition: last.partition,
        offset: last.offset,
        headers: last.headers,
        attempt,
      },
      settled,
    );
    try {
      await handler.invoke(handler.batch ? run.map((w) => w.envelope) : run[0].envelope, ctx);
    } catch (error) {
      throw new HandlerFailure(
        run.map((w) => w.envelope.id),
        ctx.failure ?? error,
      );
    }
  }

  private async deadLetter(
    record: InboundRecord,
    reason: string,
    identity: { eventId?: string; eventType?: string } = {},
  ): Promise<void> {
    const { eventId } = identity;
    await this.sink.deadLetter({ consumer: this.binding.consumer, record, reason, ...identity });
    this.stats.deadLettered++;
    this.options.logger.warn(
      `${this.binding.consumer}: dead-lettered ${record.topic}[${record.partition}]@${record.offset}${eventId ? ` (${eventId})` : ''}: ${reason}`,
    );
  }

  private logRetry(item: Work, failures: number, failure: HandlerFailure | undefined): void {
    this.options.logger.warn(
      `${this.binding.consumer}: ${item.envelope.type} ${item.envelope.id} failed (${failures}/${this.options.retry.attempts}), retrying: ${errorMessage(failure?.reason)}`,
    );
  }
}

/** Batch handlers get contiguous runs of their events; per-event handlers one at a time. */
function runs(todo: readonly Work[]): Work[][] {
  const result: Work[][] = [];
  for (const item of todo) {
    const current = result[result.length - 1];
    if (current && item.handler.batch && current[0].handler === item.handler) current.push(item);
    else result.push([item]);
  }
  return result;
}
