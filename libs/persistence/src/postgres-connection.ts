import { PrismaPg } from '@prisma/adapter-pg';
import { Client, Pool, type PoolConfig } from 'pg';
import {
  quoteIdent,
  sessionOptions,
  type DatabaseConnection,
  type Row,
  type SessionSettings,
  type StatementRunner,
} from './database';
import { pgQuery } from './prepared-statements';

/** PostgreSQL over a `pg` pool shared by every Prisma client in the process. */
export class PostgresConnection implements DatabaseConnection {
  readonly kind = 'postgres' as const;
  private readonly pool: Pool;
  private listener?: Promise<Client>;
  /** Subscribers' `onGap`, run after the listening connection was reopened and re-subscribed. */
  private readonly gapHandlers = new Set<() => void>();
  private readonly channels = new Map<string, Set<(payload: string) => void>>();

  constructor(
    private readonly url: string,
    private readonly options: { poolSize?: number; applicationName?: string } = {},
  ) {
    this.pool = this.newPool({ max: options.poolSize ?? 10 });
  }

  private newPool(config: PoolConfig): Pool {
    const pool = new Pool({
      connectionString: this.url,
      application_name: this.options.applicationName,
      // Without this an idle connection killed by a PostgreSQL restart crashes the process.
      idleTimeoutMillis: 30_000,
      ...config,
    });
    pool.on('error', () => {
      // A pooled idle client lost its server (restart, failover); pg drops it and
      // the next checkout opens a fresh one. Nothing else to do here.
    });
    return pool;
  }

  withSettings(settings: SessionSettings, options: { poolSize?: number } = {}): StatementRunner {
    // Sessions of this pool start with the settings (startup `options`), so they hold for every
    // statement without a transaction around it; the main pool's sessions are left untouched.
    const pool = this.newPool({ max: options.poolSize ?? 2, options: sessionOptions(settings) });
    return {
      query: async <T extends Row = Row>(sql: string, params: unknown[] = []) =>
        (await pool.query(pgQuery(sql, params))).rows as T[],
      close: () => pool.end(),
    };
  }

  prismaAdapter() {
    return new PrismaPg(this.pool);
  }

  async query<T extends Row = Row>(sql: string, params: unknown[] = []): Promise<T[]> {
    const result = await this.pool.query(pgQuery(sql, params));
    return result.rows as T[];
  }

  async transaction<T>(
    fn: (query: <R extends Row = Row>(sql: string, params?: unknown[]) => Promise<R[]>) => Promise<T>,
  ): Promise<T> {
    const client = await this.pool.connect();
    // A checked-out client has no pool listener: if its server goes away (restart, failover)
    // between two queries, as while the callback awaits the broker, its 'error' event would be
    // unhandled and crash the process. Keep the error; the next query fails and the client is
    // destroyed on release instead of going back to the pool.
    let lost: Error | undefined;
    const onError = (error: Error) => {
      lost = error;
    };
    client.on('error', onError);
    try {
      await client.query('BEGIN');
      const result = await fn(async (sql, params = []) => (await client.query(pgQuery(sql, params))).rows);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.removeListener('error', onError);
      client.release(lost);
    }
  }

  async listen(
    channel: string,
    onNotify: (payload: string) => void,
    onGap?: () => void,
  ): Promise<() => Promise<void>> {
    const client = await this.listenerClient();
    let handlers = this.channels.get(channel);
    if (!handlers) {
      handlers = new Set();
      this.channels.set(channel, handlers);
      await client.query(`LISTEN ${quoteIdent(channel)}`);
    }
    handlers.add(onNotify);
    if (onGap) this.gapHandlers.add(onGap);
    return async () => {
      handlers.delete(onNotify);
      if (onGap) this.gapHandlers.delete(onGap);
    };
  }

  /**
   * One dedicated connection carries every LISTEN of the process. If it dies
   * (database restart) it is reopened and re-subscribed; NOTIFY is only a wake-up
   * hint: once re-subscribed, each subscriber's `onGap` runs (its loop looks
   * once for what it missed), and the callers' polls are the last safety net.
   */
  private listenerClient(): Promise<Client> {
    if (!this.listener) {
      const opened: Promise<Client> = (async () => {
        const client = new Client({ connectionString: this.url });
        client.on('notification', (msg) => {
          for (const handler of this.channels.get(msg.channel) ?? []) handler(msg.payload ?? '');
        });
        client.on('error', () => {
          // A dying connection may report several errors: re-subscribe once.
          if (this.listener !== opened) return;
          this.listener = undefined;
          setTimeout(() => void this.resubscribe(), 1000).unref();
        });
        await client.connect();
        return client;
      })();
      this.listener = opened;
      opened.catch(() => {
        if (this.listener === opened) this.listener = undefined;
      });
    }
    return this.listener;
  }

  private async resubscribe(): Promise<void> {
    try {
      const client = await this.listenerClient();
      for (const channel of this.channels.keys()) await client.query(`LISTEN ${quoteIdent(channel)}`);
      for (const onGap of this.gapHandlers) onGap();
    } catch {
      setTimeout(() => void this.resubscribe(), 2000).unref();
    }
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  async close(): Promise<void> {
    const listener = this.listener;
    this.listener = undefined;
    if (listener) await (await listener).end().catch(() => undefined);
    await this.pool.end();
  }
}
