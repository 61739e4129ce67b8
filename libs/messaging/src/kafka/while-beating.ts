/**
 * Sends the group heartbeat every `intervalMs` while `work` runs, so a batch
 * that takes longer than the session timeout (a handler storing large job
 * outputs on a loaded machine) does not get its consumer declared dead and
 * its partitions taken away mid-batch. kafkajs heartbeats only between
 * batches on its own. A heartbeat that fails (the group is rebalancing) is
 * left to kafkajs: its own heartbeat after the batch meets the same answer
 * and rejoins the group.
 */
export async function whileBeating<T>(
  work: Promise<T>,
  heartbeat: () => Promise<void>,
  intervalMs: number,
): Promise<T> {
  const timer = setInterval(() => void heartbeat().catch(() => undefined), intervalMs);
  timer.unref();
  try {
    return await work;
  } finally {
    clearInterval(timer);
  }
}
