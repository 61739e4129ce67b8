export { ASSET_SCHEMA, ASSET_SERVICE } from './asset.schema';
export { AssetServiceModule } from './asset.module';
