import { MODE_TABLE, MODES } from '@genasset/contracts';
import { ASSET_TYPES, editCapabilitiesOf, isAssetType, sourceOf } from './asset-types';

describe('asset types', () => {
  it('are the spec list, unique and sorted', () => {
    expect(ASSET_TYPES).toHaveLength(71);
    expect(new Set(ASSET_TYPES).size).toBe(ASSET_TYPES.length);
    expect([...ASSET_TYPES]).toEqual([...ASSET_TYPES].sort());
    expect(isAssetType('inference-txt2img')).toBe(true);
    expect(isAssetType('inference')).toBe(false);
  });

  it('include every output type of the mode table (outputs of another type could never become assets)', () => {
    const outputs = MODES.flatMap((mode) => MODE_TABLE[mode].outputs);
    expect(outputs.filter((type) => !isAssetType(type))).toEqual([]);
  });

  it('map to the upstream source spelling', () => {
    expect(sourceOf('inference-txt2img')).toBe('inference-txt');
    expect(sourceOf('inference-controlnet-inpaint')).toBe('inference-control-net-inpainting');
    expect(sourceOf('texture-albedo')).toBe('texture:albedo');
    expect(sourceOf('3d23d-texture')).toBe('3d23d:texture');
    expect(sourceOf('uploaded')).toBe('uploaded');
    expect(sourceOf('3d-texture-mtl')).toBe('3d-texture-mtl');
  });

  it('edit capabilities follow the kind', () => {
    expect(editCapabilitiesOf('image', 'uploaded')).toContain('UPSCALE');
    expect(editCapabilitiesOf('image', 'uploaded')).not.toContain('UPSCALE_360');
    expect(editCapabilitiesOf('image', 'skybox-base-360')).toContain('UPSCALE_360');
    expect(editCapabilitiesOf('json', 'canvas')).toEqual([]);
    expect(editCapabilitiesOf('image', 'detection')).toEqual([]);
  });
});
