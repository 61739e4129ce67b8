import { generationParameters } from './generation-parameters';

describe('generationParameters', () => {
  it('keeps the upstream asset-metadata parameters of a txt2img request, as given', () => {
    expect(
      generationParameters({
        modelId: 'model_x',
        prompt: 'a red fox in snow',
        negativePrompt: 'blurry',
        seed: 42,
        guidance: 7.5,
        numInferenceSteps: 30,
        numSamples: 4,
        width: 512,
        scheduler: 'EulerDiscreteScheduler',
        image: 'asset_parent',
      }),
    ).toEqual({
      prompt: 'a red fox in snow',
      negativePrompt: 'blurry',
      seed: 42,
      guidance: 7.5,
      numInferenceSteps: 30,
      scheduler: 'EulerDiscreteScheduler',
    });
  });

  it('drops empty and absent fields', () => {
    expect(generationParameters({ prompt: '', seed: '7', pixelGridSize: 32 })).toEqual({ seed: '7' });
  });
});
