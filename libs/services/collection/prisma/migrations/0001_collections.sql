-- A collection groups assets and models of one project (the upstream's "team" of a listing is
-- the project: its `ownerId` is the project id). Counts are kept on the row, changed in the same
-- transaction as the membership rows they count, so reads never aggregate.
CREATE TABLE collections (
  id text PRIMARY KEY,
  team_id text NOT NULL,
  project_id text NOT NULL,
  name text NOT NULL,
  thumbnail_asset_id text,
  asset_count integer NOT NULL DEFAULT 0 CHECK (asset_count >= 0),
  model_count integer NOT NULL DEFAULT 0 CHECK (model_count >= 0),
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now()
);
-- The list route's keyset: newest first within a project.
CREATE INDEX collections_project_id_created_at_id_idx ON collections (project_id, created_at DESC, id DESC);
-- asset.deleted clears thumbnails pointing at the deleted asset.
CREATE INDEX collections_thumbnail_asset_id_idx ON collections (thumbnail_asset_id) WHERE thumbnail_asset_id IS NOT NULL;

CREATE TABLE collection_assets (
  collection_id text NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
  asset_id text NOT NULL,
  added_at timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (collection_id, asset_id)
);
-- asset.deleted finds every collection holding the asset.
CREATE INDEX collection_assets_asset_id_idx ON collection_assets (asset_id);

CREATE TABLE collection_models (
  collection_id text NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
  model_id text NOT NULL,
  added_at timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (collection_id, model_id)
);
CREATE INDEX collection_models_model_id_idx ON collection_models (model_id);

-- Assets this service has seen deleted (from asset.deleted facts). An add that checked the asset
-- with asset-service just before it was deleted must not re-insert it after the fact was applied.
CREATE TABLE deleted_assets (
  asset_id text PRIMARY KEY,
  project_id text NOT NULL,
  deleted_at timestamptz(3) NOT NULL DEFAULT now()
);
