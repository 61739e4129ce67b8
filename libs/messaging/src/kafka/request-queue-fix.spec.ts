import { fixKafkaRequestQueue } from './request-queue-fix';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const RequestQueue = require('kafkajs/src/network/requestQueue') as new (options: object) => {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  destroy(): void;
};

const logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const queue = () =>
  new RequestQueue({ maxInFlightRequests: null, requestTimeout: 30_000, enforceRequestTimeout: false, clientId: 'c', broker: 'b', logger });

describe('kafkajs RequestQueue fix', () => {
  beforeAll(() => fixKafkaRequestQueue());

  it('arms no timer while nothing is pending (kafkajs 2.2.4 re-armed a 1 ms one forever)', () => {
    const q = queue();
    q.checkPendingRequests();
    expect(q.throttleCheckTimeoutId).toBeNull();
  });

  it('still checks again when the broker throttles a pending request', () => {
    const q = queue();
    q.throttledUntil = Date.now() + 60_000;
    q.pending.push({});
    q.checkPendingRequests();
    expect(q.throttleCheckTimeoutId).not.toBeNull();
    clearTimeout(q.throttleCheckTimeoutId!);
  });
});
