/**
 * Things a scrape-time collector reads (outbox stores, delivery queues,
 * consumer groups). An app adds its sources when it starts and removes them
 * when it closes, so a gauge evaluated at scrape time reports whatever is
 * running in the process now, and several apps in one test process do not
 * leak into each other's numbers after they close.
 */
export class ScrapeSources<T> {
  private readonly items = new Set<T>();

  add(item: T): () => void {
    this.items.add(item);
    return () => {
      this.items.delete(item);
    };
  }

  list(): T[] {
    return [...this.items];
  }
}

/**
 * Runs `fn` but never longer than `ms`: a scrape must answer even while the
 * database or broker it reads from hangs (the gauge then keeps no value for
 * that source, and `up`/alerts on the dependency tell the rest).
 */
export async function withinMs<T>(ms: number, fn: () => Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([fn().catch(() => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
