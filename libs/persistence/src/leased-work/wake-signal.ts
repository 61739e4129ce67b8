/**
 * The doorbell of a polling loop (outbox relay, claim loops of the work
 * queues): the loop sleeps between rounds until its poll interval passes or
 * someone rings (a NOTIFY, a finished task, shutdown). A ring while the loop
 * is busy is remembered, so the next sleep returns at once and no wake-up is
 * lost between "nothing to do" and "go to sleep".
 *
 * Hand-written: it is a dozen lines over a timer and a promise, and the
 * libraries that offer it (p-event, async-sema) bring semantics (counting,
 * queues of waiters) these single-waiter loops must not have.
 */
export class WakeSignal {
  private rung = false;
  private waiter?: () => void;

  /** Ends the current sleep, or the next one if the loop is busy. */
  wake(): void {
    this.rung = true;
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
  }

  /** Whether a ring came since the last `take()`, and forgets it: call once at the top of each round. */
  take(): boolean {
    const rung = this.rung;
    this.rung = false;
    return rung;
  }

  /** Whether a ring is waiting to be taken. */
  get pending(): boolean {
    return this.rung;
  }

  /** Sleeps up to `ms`; returns at once when a ring is pending, early on `wake()`. */
  sleep(ms: number): Promise<void> {
    if (this.rung) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        if (this.waiter === done) this.waiter = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiter = done;
    });
  }
}
