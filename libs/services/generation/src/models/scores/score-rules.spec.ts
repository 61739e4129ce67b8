import { datasetScore } from './dataset-score';
import { promptScore } from './prompt-score';

const red = [1, 0, 0];
const blue = [0, 0, 1];

describe('training-dataset score (docs/models.md: Scores)', () => {
  it('is 0 and unknown without images', () => {
    expect(datasetScore('model_x', [])).toMatchObject({ score: 0, status: 'unknown' });
  });

  it('weighs count, resolution, uniqueness and captions as documented', () => {
    const images = Array.from({ length: 10 }, (_, i) => ({
      assetId: `asset_${i}`,
      caption: `caption number ${i} word${i}`,
      width: 1024,
      height: 2048,
      // Distinct directions, except asset_1: the same picture as asset_0.
      embedding: Array.from({ length: 10 }, (_, k) => (k === (i === 1 ? 0 : i) ? 1 : 0)),
    }));
    const result = datasetScore('model_x', images);
    // 10 images (1), all ≥ 1024 (1), asset_1 duplicates asset_0 (0.9), all captioned (1).
    expect(result.score).toBeCloseTo(0.3 + 0.25 + 0.25 * 0.9 + 0.2, 3);
    expect(result.status).toBe('complete');
    expect(result.assetCouplesWarnings).toContainEqual({ couple: ['asset_0', 'asset_1'], message: ['Similarity is too high'] });
    expect(result.details.metadataScore).toBe(1);
  });

  it('warns on missing captions and sizes, identical captions, and is incomplete without sizes', () => {
    const result = datasetScore('model_x', [
      { assetId: 'asset_a', caption: 'a cat', embedding: red },
      { assetId: 'asset_b', caption: 'A cat', width: 512, height: 512, embedding: blue },
      { assetId: 'asset_c', caption: '', width: 2048, height: 2048, embedding: [0, 1, 0] },
    ]);
    expect(result.status).toBe('incomplete');
    expect(result.assetsWarnings).toEqual(
      expect.arrayContaining([
        { assetId: 'asset_a', message: expect.arrayContaining(['Missing metadata']) },
        { assetId: 'asset_b', message: expect.arrayContaining(['Width and height must be larger than 1024']) },
        { assetId: 'asset_c', message: expect.arrayContaining(['Missing caption']) },
      ]),
    );
    expect(result.assetCouplesWarnings).toContainEqual({ couple: ['asset_a', 'asset_b'], message: ['Captions are identical'] });
  });
});

describe('prompt score (docs/models.md: Scores)', () => {
  const captions = ['a red lighthouse by the sea', 'a red lighthouse at night'];

  it('is the mean of caption Dice, lexical cosine and preset Dice', () => {
    const result = promptScore('model_x', 'red lighthouse', captions, ['red lighthouse']);
    const { captionsSimilarity, embeddingSimilarity, promptsSimilarity } = result.details;
    expect(promptsSimilarity).toEqual({ min: 1, median: 1, mean: 1 });
    expect(result.score).toBeCloseTo((captionsSimilarity.mean + embeddingSimilarity + 1) / 3, 2);
    expect(result.status).toBe('complete');
  });

  it('is 0 with a refused syntax, without a prompt, or without captions', () => {
    expect(promptScore('model_x', 'see https://x.y', captions, [])).toMatchObject({ score: 0, syntaxError: 'Unsupported url in prompt' });
    expect(promptScore('model_x', undefined, captions, [])).toMatchObject({ score: 0, status: 'unknown' });
    expect(promptScore('model_x', 'red', [], [])).toMatchObject({ score: 0, status: 'incomplete' });
  });
});
