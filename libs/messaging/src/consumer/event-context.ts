import { BaseRpcContext } from '@nestjs/microservices';
import type { SqlClient } from '../core/sql-client';

export interface EventDelivery {
  /** The consumer (group) this handler runs for. */
  readonly consumer: string;
  readonly topic: string;
  readonly partition: number;
  /** Kafka offset (in-process: outbox seq) of the message, or of the last one of a batch. */
  readonly offset: string;
  readonly headers: Readonly<Record<string, string>>;
  /** 1 on first delivery, higher on retries after a failure. */
  readonly attempt: number;
}

/**
 * What a handler gets besides the envelope (`@Ctx() ctx: EventContext<Prisma.TransactionClient>`):
 * `ctx.tx` is the transaction that also records the inbox mark, so the
 * handler's writes and "this event was applied" commit together or not at all.
 * Write only through `ctx.tx`; anything else is not covered by exactly-once.
 */
export class EventContext<Tx = SqlClient> extends BaseRpcContext<[Tx, EventDelivery]> {
  /** Set by the error-capturing interceptor, so the dead-letter reason is the real one. */
  failure?: unknown;

  constructor(
    readonly tx: Tx,
    readonly delivery: EventDelivery,
    private readonly settledCallbacks: SettledCallback[] = [],
  ) {
    super([tx, delivery]);
  }

  /**
   * Runs `callback` once the transaction is over: `committed` true after it
   * committed, false after it rolled back (this handler or another one of the
   * same transaction failed). For effects outside the database that must
   * follow only committed state, such as handing in-memory work to a local
   * worker. Errors thrown by the callback are logged, never retried.
   */
  onSettled(callback: SettledCallback): void {
    this.settledCallbacks.push(callback);
  }
}

export type SettledCallback = (committed: boolean) => void;
