/** Group-membership errors kafkajs's consumer runner handles by re-joining the group (runner.js, `isRebalancing` and UNKNOWN_MEMBER_ID). */
const REJOIN_TYPES = new Set(['REBALANCE_IN_PROGRESS', 'NOT_COORDINATOR_FOR_GROUP', 'ILLEGAL_GENERATION', 'UNKNOWN_MEMBER_ID']);

/**
 * The error to throw out of `eachBatch` when a manual `commitOffsets` failed.
 *
 * kafkajs (2.2.4) wraps a commit refused because the group is rebalancing in a
 * KafkaJSNonRetriableError. Thrown as is, the runner no longer recognises it as a
 * rebalance, the consumer crashes, and since the original protocol error is not
 * retriable it is *not restarted*: the process keeps running but never consumes
 * again. Seen when one of two replicas left its group (the distributed SIGTERM
 * drill). Unwrapped, the runner re-joins the group; the uncommitted records are
 * delivered again and the inbox drops them.
 */
export function commitFailure(error: unknown): unknown {
  for (let cause: unknown = error, depth = 0; cause && depth < 5; depth++) {
    const type = (cause as { type?: unknown }).type;
    if (typeof type === 'string' && REJOIN_TYPES.has(type)) return cause;
    cause = (cause as { cause?: unknown }).cause;
  }
  return error;
}
