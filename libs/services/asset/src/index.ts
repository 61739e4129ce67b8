export { ASSET_SCHEMA, ASSET_SERVICE } from './asset.schema';
export { AssetServiceModule } from './asset.module';
// For the asset side of later features (derived assets of jobs, collection membership).
export { AssetCoreModule } from './core/asset-core.module';
export { AssetWriter, type NewAsset, type StoredImageDescription } from './core/asset-writer';
export { AssetRepository, type AssetRow } from './core/asset.repository';
export { ASSET_TYPES, type AssetType, ASSET_KINDS, type AssetKind } from './core/asset-types';
export { StoredObjects } from './objects/stored-objects';
export { reclaimAssetLeases } from './asset.leases';
