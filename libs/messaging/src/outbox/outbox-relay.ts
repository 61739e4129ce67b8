import { errorMessage, sleep } from '@genasset/contracts';
import { Logger, type LoggerService } from '@nestjs/common';
import { backoffDelay } from '../core/backoff';
import type { Publisher } from '../core/messages';
import { outboxChannel } from '../core/messaging-tables';
import {
  boundedRawTransaction,
  rawSqlClient,
  type RawQuery,
  type RawTransaction,
  type SqlClient,
  type TransactionalClient,
} from '../core/sql-client';
import { WakeSignal } from '@genasset/persistence';
import { OutboxStore, type OutboxBacklog } from './outbox-store';

/** `DatabaseConnection.listen`: `onGap` runs when a lost subscription is back (notifications may have been missed). */
export type ListenFn = (
  channel: string,
  onNotify: (payload: string) => void,
  onGap?: () => void,
) => Promise<() => Promise<void>>;

export interface OutboxRelayOptions {
  readonly schema: string;
  /** NOTIFY subscription (`DatabaseConnection.listen`); without it the relay only polls. */
  readonly listen?: ListenFn;
  /**
   * Raw transactions on the service's database (`DatabaseConnection.transaction`):
   * the relay's own SQL then bypasses the Prisma client. Without it the relay
   * uses the client's interactive transactions.
   */
  readonly transaction?: RawTransaction;
  /** Single raw statements on the same database (the relay's peek); without it, through the client. */
  readonly query?: RawQuery;
  /** Rows per publish (default 500). */
  readonly batchSize?: number;
  /**
   * After publishing a batch that did not fill up but was not small either (at
   * least 1/50 of `batchSize`, i.e. the relay is under load), wait this long
   * before reading again, even when NOTIFY says more is there (default 50 ms).
   * Under load batches then grow towards `batchSize`; a relay seeing a trickle
   * (a few events per read) publishes each one as soon as it is committed, so
   * every hop of a request does not pay the linger. 0: read again at once.
   */
  readonly lingerMs?: number;
  /**
   * Safety-net poll when no NOTIFY arrives. Default: 1 s without a NOTIFY
   * subscription; 30 s with one, since every outbox commit sends NOTIFY and a
   * subscription that was lost wakes the relay once it is back (`onGap`), so
   * an idle relay does not read its table every second.
   */
  readonly pollIntervalMs?: number;
  /** Backoff while the transport fails (default 200 ms doubling up to 10 s). */
  readonly initialBackoffMs?: number;
  readonly maxBackoffMs?: number;
  /** Upper bound of one publish-and-delete transaction (default 60 s). */
  readonly transactionTimeoutMs?: number;
  readonly logger?: LoggerService;
}

/** `standby`: the last read found rows, and another replica held this schema's relay lock. */
export type RelayState = 'stopped' | 'idle' | 'failing' | 'standby';

export interface RelayStatus {
  state: RelayState;
  consecutiveFailures: number;
  lastError?: string;
  lastPublishedAt?: Date;
  /** Events published since start. */
  published: number;
}

const LOCKED_ELSEWHERE = -1;
/** First re-read after activity (doubles while nothing comes, up to the poll interval). */
const RECHECK_MIN_MS = 10;
/** Longest wait between those re-reads (and the poll without NOTIFY, by default). */
const RECHECK_MAX_MS = 1_000;
/** The default poll with a NOTIFY subscription (see `pollIntervalMs`). */
const LISTENING_POLL_MS = 30_000;

/**
 * Publishes one service schema's outbox: oldest rows first, in batches, then
 * deletes them. Woken by NOTIFY at each outbox commit; after a batch that did
 * not fill up it lingers briefly so that batches grow under load, and re-reads
 * shortly while its last read saw rows held back by the visibility rule (they
 * send no NOTIFY when they become eligible); polls as a safety net (a missed
 * notification costs latency, never an event). While the transport fails it backs off and
 * retries the same rows: nothing is lost, and a batch published but not
 * deleted (crash in between) is published again — consumers are idempotent.
 */
export class OutboxRelay {
  private readonly store: OutboxStore;
  private readonly batchSize: number;
  /** Set at start: the option, else a default that depends on whether LISTEN succeeded. */
  private pollIntervalMs: number;
  private readonly pollIntervalOption?: number;
  private recheckMinMs: number;
  private recheckMaxMs: number;
  private readonly lingerMs: number;
  /** Batches smaller than this are a trickle: no linger after them (latency matters more than batching). */
  private readonly lingerMinBatch: number;
  private readonly initialBackoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly transactionTimeoutMs: number;
  private readonly logger: LoggerService;
  private current: RelayStatus = { state: 'stopped', consecutiveFailures: 0, published: 0 };
  private loop?: Promise<void>;
  private stopping?: AbortController;
  private readonly doorbell = new WakeSignal();
  private unlisten?: () => Promise<void>;
  private readonly listenFn?: ListenFn;
  private readonly rawTransaction?: RawTransaction;
  /** The last read left committed rows behind the visibility rule (OutboxStore.next). */
  private heldBack = false;
  /** Single statements outside any transaction (OutboxStore.peek): on the driver when there is one. */
  private readonly reader: SqlClient;

  constructor(
    private readonly client: TransactionalClient,
    private readonly publisher: Publisher,
    options: OutboxRelayOptions,
  ) {
    this.store = new OutboxStore(options.schema);
    this.batchSize = options.batchSize ?? 500;
    this.pollIntervalOption = options.pollIntervalMs;
    this.pollIntervalMs = options.pollIntervalMs ?? RECHECK_MAX_MS;
    this.recheckMinMs = Math.min(RECHECK_MIN_MS, this.pollIntervalMs);
    this.recheckMaxMs = Math.min(RECHECK_MAX_MS, this.pollIntervalMs);
    this.lingerMs = Math.max(0, options.lingerMs ?? 50);
    this.lingerMinBatch = Math.max(2, Math.floor(this.batchSize / 50));
    this.initialBackoffMs = options.initialBackoffMs ?? 200;
    this.maxBackoffMs = options.maxBackoffMs ?? 10_000;
    this.transactionTimeoutMs = options.transactionTimeoutMs ?? 60_000;
    this.logger = options.logger ?? new Logger(`OutboxRelay(${options.schema})`);
    this.listenFn = options.listen;
    this.rawTransaction = options.transaction;
    this.reader = options.query ? rawSqlClient(options.query) : client;
  }

  get schema(): string {
    return this.store.schema;
  }

  async start(): Promise<void> {
    if (this.loop) return;
    this.stopping = new AbortController();
    if (this.listenFn) {
      try {
        this.unlisten = await this.listenFn(
          outboxChannel(this.store.schema),
          () => this.notify(),
          () => this.notify(),
        );
      } catch (error) {
        this.logger.warn(`LISTEN failed, relying on polling: ${errorMessage(error)}`);
      }
    }
    this.pollIntervalMs = this.pollIntervalOption ?? (this.unlisten ? LISTENING_POLL_MS : RECHECK_MAX_MS);
    this.recheckMinMs = Math.min(RECHECK_MIN_MS, this.pollIntervalMs);
    this.recheckMaxMs = Math.min(RECHECK_MAX_MS, this.pollIntervalMs);
    this.current = { ...this.current, state: 'idle' };
    this.loop = this.run(this.stopping.signal);
  }

  /** Stops after the in-flight batch is published and deleted. */
  async stop(): Promise<void> {
    if (!this.loop) return;
    this.stopping?.abort();
    this.doorbell.wake();
    await this.loop;
    this.loop = undefined;
    await this.unlisten?.().catch(() => undefined);
    this.current = { ...this.current, state: 'stopped' };
  }

  status(): RelayStatus {
    return { ...this.current };
  }

  backlog(): Promise<OutboxBacklog> {
    return this.store.backlog(this.client);
  }

  /** Asks for a cycle now (also what NOTIFY does). */
  notify(): void {
    this.doorbell.wake();
  }

  /**
   * Publishes one batch; returns how many rows it published (-1: another
   * replica holds the lock). `notified`: a commit's NOTIFY woke this read, so
   * rows are almost surely ready (in the remote-backend bench 95 % of such
   * reads found some): it goes straight to the locked read instead of peeking
   * first, one round trip less per publish. The other reads (the poll, the
   * re-reads for held-back rows) mostly find nothing and peek first.
   */
  async publishBatch(options: { notified?: boolean } = {}): Promise<number> {
    if (this.publisher.deliversInProcess) {
      // In-process delivery runs consumer transactions on this same database
      // (possibly PGlite's single connection): no transaction may stay open
      // meanwhile. One process is the only publisher in that mode anyway.
      const { rows, heldBack } = await this.store.next(this.client, this.batchSize);
      this.heldBack = heldBack;
      if (rows.length === 0) return 0;
      await this.publisher.publish(rows.map((r) => r.message));
      await this.store.remove(
        this.client,
        rows.map((r) => r.seq),
      );
      return rows.length;
    }
    if (!options.notified) {
      const { ready, heldBack } = await this.store.peek(this.reader);
      if (!ready) {
        this.heldBack = heldBack;
        return 0;
      }
    }
    return this.inTransaction(async (tx) => {
      if (!(await this.store.tryLock(tx))) return LOCKED_ELSEWHERE;
      // Read and delete in one statement: if the publish fails, the
      // transaction rolls back and the rows are there for the next round.
      const { rows, heldBack } = await this.store.take(tx, this.batchSize);
      this.heldBack = heldBack;
      if (rows.length === 0) return 0;
      await this.publisher.publish(rows.map((r) => r.message));
      return rows.length;
    });
  }

  /**
   * One transaction for the relay's own SQL: on the raw connection when it has
   * one, else through the Prisma client. Either way bounded by
   * `transactionTimeoutMs` (a hung publish must not hold the lock forever):
   * past it the transaction rolls back and refuses further statements.
   */
  private inTransaction<T>(fn: (tx: SqlClient) => Promise<T>): Promise<T> {
    if (!this.rawTransaction)
      return this.client.$transaction(fn, { timeout: this.transactionTimeoutMs, maxWait: 10_000 });
    return boundedRawTransaction(this.rawTransaction, fn, this.transactionTimeoutMs);
  }

  private async run(signal: AbortSignal): Promise<void> {
    let recheckMs = this.recheckMinMs;
    while (!signal.aborted) {
      let published: number;
      // New commits (NOTIFY) restart the short re-reads: their rows may be held back.
      const notified = this.doorbell.take();
      if (notified) recheckMs = this.recheckMinMs;
      try {
        published = await this.publishBatch({ notified });
      } catch (error) {
        const failures = this.current.consecutiveFailures + 1;
        const delay = backoffDelay(failures, this.initialBackoffMs, this.maxBackoffMs);
        if (failures === 1 || failures % 10 === 0) {
          this.logger.warn(`publishing failed ${failures}x, retrying in ${delay} ms: ${errorMessage(error)}`);
        }
        this.current = {
          ...this.current,
          state: 'failing',
          consecutiveFailures: failures,
          lastError: errorMessage(error),
        };
        await sleep(delay, { signal });
        continue;
      }
      if (this.current.consecutiveFailures > 0) this.logger.log('publishing recovered');
      this.current = {
        ...this.current,
        state: published === LOCKED_ELSEWHERE ? 'standby' : 'idle',
        consecutiveFailures: 0,
        lastError: undefined,
        ...(published > 0
          ? { lastPublishedAt: new Date(), published: this.current.published + published }
          : {}),
      };
      // A full batch means more is waiting: go again without sleeping.
      if (published === this.batchSize) {
        recheckMs = this.recheckMinMs;
        continue;
      }
      if (published > 0) {
        recheckMs = this.recheckMinMs;
        if (this.lingerMs > 0 && published >= this.lingerMinBatch) {
          // Under load, pause after a partial batch so that the next one is
          // larger: each batch costs a broker round trip here and a
          // transaction per partition in every consumer.
          await sleep(this.lingerMs, { signal });
          continue;
        }
      }
      // Rows held back at the read (an older transaction was still running)
      // become eligible without any NOTIFY: look again shortly, backing off to
      // a second (at most the poll). Nothing held back: every future row comes with its
      // NOTIFY, so sleep until one (the poll is the safety net).
      // Without a NOTIFY subscription, always (backing off after activity).
      const recheck = published !== LOCKED_ELSEWHERE && (this.heldBack || !this.unlisten);
      // A standby (rows were there, another replica holds the lock) looks again
      // within a second, as before: it takes over if that replica dies mid-batch.
      const wait = recheck ? recheckMs : published === LOCKED_ELSEWHERE ? this.recheckMaxMs : this.pollIntervalMs;
      if (recheck) recheckMs = Math.min(this.recheckMaxMs, recheckMs * 2);
      if (!signal.aborted) await this.doorbell.sleep(wait);
    }
  }
}
