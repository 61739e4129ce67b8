import type { Collection } from '../generated/prisma/client';
import { toCollectionView } from './collection.view';

const row: Collection = {
  id: 'collection_01JD6Z3Q9V8K2M4N6P8R0T2V4X',
  teamId: 'team_01JD6Z3Q9V8K2M4N6P8R0T2V4X',
  projectId: 'proj_01JD6Z3Q9V8K2M4N6P8R0T2V4X',
  name: 'Heroes',
  thumbnailAssetId: null,
  assetCount: 3,
  modelCount: 2,
  createdAt: new Date('2026-11-21T13:00:00.000Z'),
  updatedAt: new Date('2026-11-21T13:05:00.000Z'),
};

describe('toCollectionView', () => {
  it('shows the upstream fields: ownerId is the project, itemCount sums both kinds, no thumbnail when unset', () => {
    expect(toCollectionView(row)).toEqual({
      id: row.id,
      name: 'Heroes',
      ownerId: row.projectId,
      assetCount: 3,
      modelCount: 2,
      itemCount: 5,
      createdAt: '2026-11-21T13:00:00.000Z',
      updatedAt: '2026-11-21T13:05:00.000Z',
    });
  });

  it('points the thumbnail at the asset resource under the public base URL', () => {
    const view = toCollectionView({ ...row, thumbnailAssetId: 'asset_X' }, 'https://api.example.com/');
    expect(view.thumbnail).toEqual({ assetId: 'asset_X', url: 'https://api.example.com/v1/assets/asset_X' });
    expect(toCollectionView({ ...row, thumbnailAssetId: 'asset_X' }).thumbnail?.url).toBe(
      '/v1/assets/asset_X',
    );
  });
});
