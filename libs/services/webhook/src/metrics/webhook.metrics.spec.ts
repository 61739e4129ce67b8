import { metricsRegistry } from '@genasset/observability';
import { answered, networkFailure, serviceFailure, transportFailure } from '../dispatch/attempt-outcome';
import { attemptOutcomeLabel, observeRecorded } from './webhook.metrics';

describe('webhook metrics', () => {
  const at = new Date();

  it('labels attempt outcomes by whose fault and what kind', () => {
    expect(attemptOutcomeLabel(answered(204, at, 5))).toBe('success');
    expect(attemptOutcomeLabel(answered(410, at, 5))).toBe('http_4xx');
    expect(attemptOutcomeLabel(answered(503, at, 5))).toBe('http_5xx');
    expect(attemptOutcomeLabel(answered(302, at, 5))).toBe('http_other');
    expect(attemptOutcomeLabel(transportFailure(new Error('x'), at, 30_000, 30_000, true))).toBe('timeout');
    expect(attemptOutcomeLabel(networkFailure('ECONNREFUSED', at, 3))).toBe('network_error');
    expect(attemptOutcomeLabel(serviceFailure('secret cannot be opened'))).toBe('service_error');
  });

  it('counts recorded results: delivered, retry scheduled, failed for good', async () => {
    const of = { deliveryId: 'd', endpointId: 'e', attempt: 1 };
    observeRecorded(
      [
        { ...of, ...answered(200, at, 1) },
        { ...of, ...answered(500, at, 1) },
        { ...of, ...answered(500, at, 1) },
      ],
      1,
    );
    const text = await metricsRegistry.getSingleMetricAsString('webhook_deliveries_total');
    expect(text).toContain('webhook_deliveries_total{result="delivered"} 1');
    expect(text).toContain('webhook_deliveries_total{result="retry_scheduled"} 1');
    expect(text).toContain('webhook_deliveries_total{result="failed"} 1');
  });
});
