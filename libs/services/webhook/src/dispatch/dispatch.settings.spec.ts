import { loadWebhookConfig } from '../webhook.config';
import { dispatchSettings } from './dispatch.settings';

describe('dispatchSettings', () => {
  it('defaults to the spec: 3 attempts, retries after 1 and 2 minutes, 30 s timeout', () => {
    const settings = dispatchSettings(loadWebhookConfig({}), {});
    expect(settings).toMatchObject({
      retryDelaysMs: [60_000, 120_000],
      maxAttempts: 3,
      timeoutMs: 30_000,
      leaseMs: 60_000,
      // NOTIFY and the worker's own retry times wake it; the poll is a safety net (docs/webhooks.md).
      pollIntervalMs: 10_000,
      recheckAfterMs: 100,
    });
    expect(settings.drainTimeoutMs).toBe(20_000); // SHUTDOWN_GRACE 25 s minus 5 s to record
  });

  it('takes the schedule and timeout from WEBHOOK_RETRY_DELAYS and WEBHOOK_TIMEOUT', () => {
    const settings = dispatchSettings(
      loadWebhookConfig({
        WEBHOOK_RETRY_DELAYS: '300ms,600ms',
        WEBHOOK_TIMEOUT: '1s',
        WEBHOOK_LEASE_MARGIN: '2s',
      }),
      {},
    );
    expect(settings).toMatchObject({
      retryDelaysMs: [300, 600],
      maxAttempts: 3,
      timeoutMs: 1_000,
      leaseMs: 3_000,
      drainTimeoutMs: 1_000,
    });
  });
});
