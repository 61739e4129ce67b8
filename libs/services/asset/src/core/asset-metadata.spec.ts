import { readFileSync } from 'node:fs';
import { UPSTREAM_DOCUMENT_PATH } from '@genasset/testing';
import { conformMetadata, UPSTREAM_METADATA_TYPES } from './asset-metadata';

interface PropertySchema {
  type: string;
  enum?: string[];
  items?: { type?: string };
}

describe('conformMetadata', () => {
  it('knows every metadata field of the upstream reference with its type (type and kind are the presenter’s)', () => {
    const document = JSON.parse(readFileSync(UPSTREAM_DOCUMENT_PATH, 'utf8'));
    const metadata = document.definitions.GetAssetsByAssetIdResponse.properties.asset.properties.metadata;
    const expected = Object.entries(metadata.properties as Record<string, PropertySchema>)
      .filter(([key]) => key !== 'type' && key !== 'kind')
      .map(([key, schema]): [string, string] => [
        key,
        schema.enum
          ? `one of ${schema.enum.join(', ')}`
          : schema.type === 'array' && schema.items?.type === 'string'
            ? 'array of string'
            : schema.type,
      ]);
    expect(Object.fromEntries(UPSTREAM_METADATA_TYPES)).toEqual(Object.fromEntries(expected));
  });

  it('gives a numeric seed as its decimal string (upstream: string)', () => {
    expect(conformMetadata({ seed: 42, engine: 'preview' })).toEqual({ seed: '42', engine: 'preview' });
    expect(conformMetadata({ seed: '42' })).toEqual({ seed: '42' });
  });

  it('converts what converts without loss: numeric strings to numbers, "true"/"false" to booleans', () => {
    expect(conformMetadata({ width: '512', height: 768, sharpen: 'true', invert: false })).toEqual({
      width: 512,
      height: 768,
      sharpen: true,
      invert: false,
    });
  });

  it('leaves out what cannot be shown in the upstream type, values outside an enum included', () => {
    expect(
      conformMetadata({
        width: 'wide',
        size: Number.NaN,
        sharpen: 'yes',
        bbox: '1,2,3,4',
        styleImages: ['asset_a', 3],
        thumbnail: 'x',
        modality: 'x-ray',
        style: 'anime',
        prompt: { text: 'x' },
      }),
    ).toEqual({ style: 'anime' });
  });

  it('passes fields upstream does not know as they are (its schema is open)', () => {
    const stored = { engine: 'http', mode: 'txt2img', method: { name: 'x' }, filledPixels: 12 };
    expect(conformMetadata(stored)).toEqual(stored);
  });
});
