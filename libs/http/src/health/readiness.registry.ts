import { Injectable } from '@nestjs/common';

export type ReadinessCheck = () => Promise<void>;

export interface ReadinessResult {
  ready: boolean;
  /** `'ok'` or the failure message, per check. */
  checks: Record<string, string>;
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
    entries.forEach(([name], i) => (checks[name] = outcomes[i]));
    if (this.shuttingDown) checks.shutdown = 'shutting down';
    return { ready: Object.values(checks).every((v) => v === 'ok'), checks };
  }
}

async function runWithTimeout({ check, timeoutMs }: Registered): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([Promise.resolve().then(check), timeout]);
    return 'ok';
  } catch (error) {
    return error instanceof Error && error.message ? error.message : String(error) || 'failed';
  } finally {
    clearTimeout(timer);
  }
}
