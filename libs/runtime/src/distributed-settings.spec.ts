import { missingDistributedSettings } from './distributed-settings';

describe('missingDistributedSettings', () => {
  const full = {
    NODE_ENV: 'production' as const,
    DATABASE_URL: 'postgres://db/app',
    KAFKA_BROKERS: ['k:9092'],
  };

  it('names what a service process in production lacks, instead of letting it fall back to embedded parts', () => {
    expect(missingDistributedSettings({ ...full, DATABASE_URL: undefined }, 'job-service', false)).toMatch(
      /^DATABASE_URL: required in production, where job-service runs as one service/,
    );
    expect(missingDistributedSettings({ ...full, KAFKA_BROKERS: undefined }, 'job-service', false)).toMatch(
      /^KAFKA_BROKERS: required in production/,
    );
    expect(
      missingDistributedSettings(
        { NODE_ENV: 'production', DATABASE_URL: undefined, KAFKA_BROKERS: [] },
        'x',
        false,
      ),
    ).toMatch(/^DATABASE_URL and KAFKA_BROKERS: required/);
    expect(missingDistributedSettings(full, 'job-service', false)).toBeUndefined();
  });

  it('leaves the platform app and development or test runs their embedded fallbacks', () => {
    const bare = { NODE_ENV: 'production' as const, DATABASE_URL: undefined, KAFKA_BROKERS: undefined };
    expect(missingDistributedSettings(bare, 'platform', true)).toBeUndefined();
    expect(
      missingDistributedSettings({ ...bare, NODE_ENV: 'development' }, 'job-service', false),
    ).toBeUndefined();
    expect(missingDistributedSettings({ ...bare, NODE_ENV: 'test' }, 'job-service', false)).toBeUndefined();
  });
});
