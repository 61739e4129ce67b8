import type { AssetObject, AssetsApi, TenantRef } from '@genasset/contracts';
import type { ObjectStore } from '@genasset/storage';
import { ApiError } from '@genasset/http';
import type { ImageInput } from './image-inputs';
import { InputResolver } from './input-resolver';

const tenant: TenantRef = { teamId: 'team_1', projectId: 'project_1' };
const asset = (path: string, value: string): ImageInput => ({
  path,
  value,
  kind: 'asset',
  accepts: 'asset-or-data-url',
});
const object = (assetId: string, size?: { width: number; height: number }): AssetObject => ({
  assetId,
  key: `assets/project_1/${assetId}/original.png`,
  mimeType: size ? 'image/png' : 'application/json',
  kind: size ? 'image' : 'json',
  type: size ? 'uploaded' : 'canvas',
  ...size,
});

/** AssetsApi answering `objects` from a fixed table and recording each call; anything else is a test error. */
function fakeAssets(table: AssetObject[]) {
  const calls: string[][] = [];
  const api: AssetsApi = {
    existing: () => Promise.reject(new Error('existing: the resolver asks objects only')),
    uploadImage: () => Promise.reject(new Error('uploadImage: not expected')),
    views: () => Promise.reject(new Error('views: not expected')),
    embeddings: () => Promise.reject(new Error('embeddings: not expected')),
    copy: () => Promise.reject(new Error('copy: not expected')),
    objects: (_tenant, ids) => {
      calls.push([...ids]);
      return Promise.resolve(table.filter((o) => ids.includes(o.assetId)));
    },
  };
  return { api, calls };
}

describe('InputResolver.resolve', () => {
  const resolver = (api: AssetsApi) => new InputResolver(api, {} as ObjectStore);

  it('checks every asset and reads their sizes in one lookup', async () => {
    const { api, calls } = fakeAssets([
      object('asset_a', { width: 128, height: 96 }),
      object('asset_b', { width: 640, height: 480 }),
    ]);
    const { sizes } = await resolver(api).resolve(tenant, [
      asset('image', 'asset_a'),
      asset('styleImages.0', 'asset_b'),
      asset('styleImages.1', 'asset_a'),
    ]);
    expect(calls).toEqual([['asset_a', 'asset_b']]);
    expect(sizes).toEqual([
      { path: 'image', width: 128, height: 96 },
      { path: 'styleImages.0', width: 640, height: 480 },
      { path: 'styleImages.1', width: 128, height: 96 },
    ]);
  });

  // This used to accept a canvas in an image field (no size, so nothing to price by). The job was then
  // charged and always failed in the worker ("image is not a readable image") and was refunded: asset-service
  // tells the kind with the lookup the resolver makes anyway, so a non-image asset is refused at request time.
  it('answers 400 naming the field when an image field is given a canvas (a non-image asset)', async () => {
    const { api } = fakeAssets([object('asset_a', { width: 8, height: 8 }), object('asset_canvas')]);
    const error = await resolver(api)
      .resolve(tenant, [asset('image', 'asset_a'), asset('styleImages.0', 'asset_canvas')])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).getStatus()).toBe(400);
    expect((error as ApiError).infos).toEqual({
      fields: { 'styleImages.0': [expect.stringContaining('canvas')] },
    });
  });

  it('takes an asset of any kind as a custom-model input, with no size', async () => {
    const { api } = fakeAssets([object('asset_canvas')]);
    const input: ImageInput = { ...asset('clip', 'asset_canvas'), anyMedia: true };
    expect((await resolver(api).resolve(tenant, [input])).sizes).toEqual([]);
  });

  it('answers 404 naming the first missing or foreign asset and its field', async () => {
    const { api } = fakeAssets([object('asset_a', { width: 8, height: 8 })]);
    const error = await resolver(api)
      .resolve(tenant, [asset('image', 'asset_a'), asset('styleImages.0', 'asset_gone')])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).getStatus()).toBe(404);
    expect((error as ApiError).infos).toEqual({ id: 'asset_gone', field: 'styleImages.0' });
  });

  it('asks nothing when the request has no asset', async () => {
    const { api, calls } = fakeAssets([]);
    expect(await resolver(api).resolve(tenant, [])).toEqual({ inputs: [], decoded: [], sizes: [] });
    expect(calls).toEqual([]);
  });
});
