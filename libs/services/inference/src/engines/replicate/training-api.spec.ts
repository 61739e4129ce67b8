import { trainedVersion, trainingHandle, trainingOf, type Training } from './training-api';

const training = (output: unknown): Training => ({ id: 't1', status: 'succeeded', output });
const v = 'b'.repeat(64);

describe('Replicate trainings', () => {
  it('reads the version a training made: owner/name:<version> as given, a bare version under the destination', () => {
    expect(trainedVersion(training({ version: `acme/styles:${v}`, weights: 'https://x' }), 'acme/other')).toBe(`acme/styles:${v}`);
    expect(trainedVersion(training({ version: v }), 'acme/styles')).toBe(`acme/styles:${v}`);
    expect(trainedVersion(training({ version: 'latest' }), 'acme/styles')).toBeUndefined();
    expect(trainedVersion(training(null), 'acme/styles')).toBeUndefined();
  });

  it('tells a training handle from a prediction id', () => {
    expect(trainingOf(trainingHandle('abc123'))).toBe('abc123');
    expect(trainingOf('abc123')).toBeUndefined();
  });
});
