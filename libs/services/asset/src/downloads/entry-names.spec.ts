import { entryNames, extensionOf, safeSegment, type NamedAsset } from './entry-names';

const asset = (over: Partial<NamedAsset> = {}): NamedAsset => ({
  id: 'asset_A',
  mimeType: 'image/png',
  storageKey: 'assets/p/asset_A/original-x.png',
  name: null,
  inferenceId: null,
  modelId: null,
  outputIndex: null,
  metadata: {},
  ...over,
});

describe('entryNames', () => {
  it('defaults to <assetId>.<ext>, outputs of an inference in its folder unless flat', () => {
    const assets = [asset(), asset({ id: 'asset_B', mimeType: 'image/jpeg', inferenceId: 'inf_1' })];
    expect(entryNames(assets)).toEqual(['asset_A.png', 'inf_1/asset_B.jpg']);
    expect(entryNames(assets, { flat: true })).toEqual(['asset_A.png', 'asset_B.jpg']);
  });

  it('fills upstream template parameters from the asset', () => {
    const a = asset({ outputIndex: 3, modelId: 'model_x', metadata: { seed: 42, prompt: 'a red fox' } });
    expect(entryNames([a], { fileNameTemplate: '<generator>-<prompt>-<num>-<seed>' })).toEqual([
      'model_x-a red fox-3-42.png',
    ]);
    // Missing values are empty; <num> falls back to the position in the batch.
    expect(entryNames([asset(), asset({ id: 'asset_B' })], { fileNameTemplate: 'x-<num><seed>' })).toEqual([
      'x-0.png',
      'x-1.png',
    ]);
    // Nothing left but punctuation: the asset id.
    expect(entryNames([asset()], { fileNameTemplate: '<prompt>-<seed>' })).toEqual(['asset_A.png']);
  });

  it('makes names unique, case-insensitively', () => {
    const names = entryNames(
      [asset({ name: 'Cat' }), asset({ id: 'asset_B', name: 'cat' }), asset({ id: 'asset_C', name: 'CAT' })],
      {
        fileNameTemplate: '<name>',
      },
    );
    expect(names).toEqual(['Cat.png', 'cat (2).png', 'CAT (3).png']);
  });

  it('never lets data escape the archive: separators, dot segments, controls', () => {
    const names = entryNames(
      [
        asset({ metadata: { prompt: '../../etc/passwd' } }),
        asset({ id: 'asset_B', metadata: { prompt: '/abs\\path\u0000x' } }),
        asset({ id: 'asset_C', metadata: { prompt: '...' } }),
        asset({ id: 'asset_D', inferenceId: '../up' }),
      ],
      { fileNameTemplate: '<prompt>' },
    );
    for (const name of names) {
      expect(name).not.toMatch(/^\//);
      expect(name.split('/')).not.toContain('..');
      expect(name).not.toMatch(/[\\\u0000]/);
    }
    expect(names[2]).toBe('asset_C.png');
    expect(names[3]).toBe('up/asset_D.png');
  });

  it('caps long names', () => {
    const [name] = entryNames([asset({ metadata: { prompt: 'p'.repeat(500) } })], {
      fileNameTemplate: '<prompt>',
    });
    expect(name.length).toBeLessThanOrEqual(124);
  });
});

describe('extensionOf / safeSegment', () => {
  it('derives extensions from the MIME type, then the key', () => {
    expect(extensionOf({ mimeType: 'video/mp4', storageKey: 'k' })).toBe('mp4');
    expect(extensionOf({ mimeType: 'application/x-thing', storageKey: 'a/b.FBX' })).toBe('fbx');
    expect(extensionOf({ mimeType: 'application/x-thing', storageKey: 'a/b' })).toBe('bin');
  });

  it('keeps letters of any script', () => {
    expect(safeSegment('été à Tōkyō: 東京')).toBe('été à Tōkyō_ 東京');
  });
});
