/**
 * Two idle costs of kafkajs 2.2.4 (unmaintained), fixed in place on its per-connection RequestQueue:
 *
 * - `scheduleCheckPendingRequests` re-arms a timer with a negative delay (so 1 ms) whenever
 *   nothing is pending: an endless timer loop on every broker connection, ~800 wake-ups a second
 *   in an idle service process (tulios/kafkajs#1556 and #1704; the fix, PR #1667, was never
 *   merged). Here nothing is scheduled while nothing is pending: a request that has to wait
 *   (throttle, in-flight cap) schedules its own check when it is queued, and a finished request
 *   checks the queue, as before.
 * - The request-timeout sweep runs every `min(requestTimeout, 100 ms)` per connection; against a
 *   30 s request timeout, every second is as good and ten times rarer.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const RequestQueue = require('kafkajs/src/network/requestQueue') as { prototype: RequestQueueInternals };

interface InFlight {
  sentAt: number;
  requestTimeout: number;
  timeoutRequest(): void;
}

interface RequestQueueInternals {
  pending: unknown[];
  inflight: Map<number, InFlight>;
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  enforceRequestTimeout: boolean;
  requestTimeout: number;
  requestTimeoutIntervalId?: NodeJS.Timeout;
  isConnected(): boolean;
  destroy(): void;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
  scheduleRequestTimeoutCheck(): void;
}

/** kafkajs' own interval between checks of a throttled queue. */
const CHECK_PENDING_REQUESTS_INTERVAL_MS = 10;
const REQUEST_TIMEOUT_SWEEP_MS = 1_000;

let applied = false;

/** Applies both fixes to kafkajs' RequestQueue, once per process. */
export function fixKafkaRequestQueue(): void {
  if (applied) return;
  applied = true;
  RequestQueue.prototype.scheduleCheckPendingRequests = function (this: RequestQueueInternals) {
    if (this.pending.length === 0 || this.throttleCheckTimeoutId) return;
    const throttled = this.throttledUntil - Date.now();
    this.throttleCheckTimeoutId = setTimeout(
      () => {
        this.throttleCheckTimeoutId = null;
        this.checkPendingRequests();
      },
      throttled > 0 ? throttled : CHECK_PENDING_REQUESTS_INTERVAL_MS,
    );
  };
  RequestQueue.prototype.scheduleRequestTimeoutCheck = function (this: RequestQueueInternals) {
    if (!this.enforceRequestTimeout) return;
    this.destroy();
    this.requestTimeoutIntervalId = setInterval(
      () => {
        this.inflight.forEach((request) => {
          if (Date.now() - request.sentAt > request.requestTimeout) request.timeoutRequest();
        });
        if (!this.isConnected()) this.destroy();
      },
      Math.min(this.requestTimeout, REQUEST_TIMEOUT_SWEEP_MS),
    );
  };
}
