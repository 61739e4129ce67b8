/**
 * How long after its lease was taken a delivery may still start its attempt.
 * The attempt can last the whole timeout, and its outcome must be recorded
 * while the lease holds; otherwise another replica could claim the delivery
 * and send it a second time while this one still runs. The slack (up to 5 s,
 * at most half the margin) covers the record's round trip and the few ms
 * between a transaction's start, when the intake's lease begins, and the
 * moment the worker notes it.
 */
export function startWindowMs(leaseMs: number, timeoutMs: number): number {
  const margin = Math.max(0, leaseMs - timeoutMs);
  return margin - Math.min(5_000, margin / 2);
}
