import { Injectable } from '@nestjs/common';

/**
 * Passes by resolving, fails by throwing. A check that passes may resolve to a
 * detail: how the dependency is served (`'exact scan (pgvector not installed)'`),
 * shown beside its `'ok'` under `details`.
 */
export type ReadinessCheck = () => Promise<void | string>;

export interface ReadinessResult {
  ready: boolean;
  /** `'ok'` or the failure message, per check. */
  checks: Record<string, string>;
  /** The details of the passing checks that gave one (absent when none did). */
  details?: Record<string, string>;
}

interface Registered {
  check: ReadinessCheck;
  timeoutMs: number;
}

/**
 * Readiness checks contributed at runtime by the modules that own a
 * dependency (database ping, broker connection), usually in `onModuleInit`.
 * A check passes by resolving; it fails by throwing or by running past its
 * timeout, so one hung dependency cannot hang the probe.
 */
@Injectable()
export class ReadinessRegistry {
  static readonly defaultTimeoutMs = 2000;
  private readonly checks = new Map<string, Registered>();
  private shuttingDown = false;

  /**
   * Names are unique per process: a second registration under the same name
   * is a wiring mistake (two modules would hide each other's failures), so it
   * throws at start-up. Returns a function that removes the check.
   */
  register(name: string, check: ReadinessCheck, options: { timeoutMs?: number } = {}): () => void {
    if (this.checks.has(name)) throw new Error(`readiness check "${name}" is already registered`);
    const entry = { check, timeoutMs: options.timeoutMs ?? ReadinessRegistry.defaultTimeoutMs };
    this.checks.set(name, entry);
    return () => {
      if (this.checks.get(name) === entry) this.checks.delete(name);
    };
  }

  /** From now on the process reports unready so load balancers stop sending traffic. */
  markShuttingDown(): void {
    this.shuttingDown = true;
  }

  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  names(): string[] {
    return [...this.checks.keys()];
  }

  async run(): Promise<ReadinessResult> {
    const entries = [...this.checks.entries()];
    const outcomes = await Promise.all(entries.map(([, entry]) => runWithTimeout(entry)));
    const checks: Record<string, string> = {};
    const details: Record<string, string> = {};
    entries.forEach(([name], i) => {
      checks[name] = outcomes[i].status;
      if (outcomes[i].detail !== undefined) details[name] = outcomes[i].detail!;
    });
    if (this.shuttingDown) checks.shutdown = 'shutting down';
    const ready = Object.values(checks).every((v) => v === 'ok');
    // `checks` keeps its one-string-per-check shape (probes and scripts compare it with 'ok'); details come beside it.
    return Object.keys(details).length ? { ready, checks, details } : { ready, checks };
  }
}

async function runWithTimeout({ check, timeoutMs }: Registered): Promise<{ status: string; detail?: string }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const detail = await Promise.race([Promise.resolve().then(check), timeout]);
    return typeof detail === 'string' && detail ? { status: 'ok', detail } : { status: 'ok' };
  } catch (error) {
    return { status: error instanceof Error && error.message ? error.message : String(error) || 'failed' };
  } finally {
    clearTimeout(timer);
  }
}
