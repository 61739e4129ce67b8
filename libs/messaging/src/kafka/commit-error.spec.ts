import { KafkaJSNonRetriableError, KafkaJSProtocolError } from 'kafkajs';
import { commitFailure } from './commit-error';

describe('commitFailure', () => {
  const protocolError = (type: string) => Object.assign(new KafkaJSProtocolError('The group is rebalancing, so a rejoin is needed'), { type });

  it.each(['REBALANCE_IN_PROGRESS', 'NOT_COORDINATOR_FOR_GROUP', 'ILLEGAL_GENERATION', 'UNKNOWN_MEMBER_ID'])(
    'unwraps a %s wrapped by the commit retrier, so the runner re-joins instead of crashing for good',
    (type) => {
      const original = protocolError(type);
      // As kafkajs's retrier wraps it (retry/index.js: new KafkaJSNonRetriableError(e, { cause })).
      const wrapped = Object.assign(new KafkaJSNonRetriableError(original), { cause: original });
      expect(commitFailure(wrapped)).toBe(original);
    },
  );

  it('leaves every other error as it is', () => {
    const other = new KafkaJSNonRetriableError(new Error('boom'));
    expect(commitFailure(other)).toBe(other);
    const plain = new Error('database down');
    expect(commitFailure(plain)).toBe(plain);
    expect(commitFailure(undefined)).toBeUndefined();
  });
});
