-- asset-service: assets, canvas snapshots and the storage cleanup queue.
-- Every list filter of GET /v1/assets has an index that yields rows already in
-- (sort key, id) order, so a page is one index range scan of pageSize + 1 rows
-- whatever the table size (docs/assets.md, "Indexes").

CREATE TABLE assets (
  id text PRIMARY KEY,
  team_id text NOT NULL,
  project_id text NOT NULL,
  author_id text NOT NULL,
  type text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('3d', 'audio', 'document', 'image', 'image-hdr', 'json', 'video')),
  mime_type text NOT NULL,
  status text NOT NULL DEFAULT 'success' CHECK (status IN ('error', 'pending', 'success')),
  privacy text NOT NULL DEFAULT 'private' CHECK (privacy IN ('private', 'public', 'unlisted')),
  name text,
  description text,
  tags text[] NOT NULL DEFAULT '{}',
  collection_ids text[] NOT NULL DEFAULT '{}',
  parent_id text,
  root_parent_id text,
  inference_id text,
  model_id text,
  job_id text,
  output_index integer,
  storage_key text NOT NULL,
  rendition_key text,
  thumbnail_key text,
  properties jsonb NOT NULL,
  metadata jsonb NOT NULL DEFAULT '{}',
  embedding real[] NOT NULL DEFAULT '{}',
  content_version integer NOT NULL DEFAULT 1,
  lock_id text,
  lock_expires_at timestamptz(3),
  lock_author_id text,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now(),
  CHECK ((job_id IS NULL) = (output_index IS NULL))
);

-- Idempotent creation of job outputs (NULLs are distinct: uploads never collide).
CREATE UNIQUE INDEX assets_job_id_output_index_key ON assets (job_id, output_index);

-- Project lists: default sort, sortBy=updatedAt, type/types (one range scan per type,
-- merged), authorId.
CREATE INDEX assets_project_id_created_at_id_idx ON assets (project_id, created_at DESC, id DESC);
CREATE INDEX assets_project_id_updated_at_id_idx ON assets (project_id, updated_at DESC, id DESC);
CREATE INDEX assets_project_id_type_created_at_id_idx ON assets (project_id, type, created_at DESC, id DESC);
CREATE INDEX assets_project_id_author_id_created_at_id_idx ON assets (project_id, author_id, created_at DESC, id DESC);

-- Lineage and provenance filters: selective keys (one parent, root, inference), so
-- the project condition is checked on the few rows they return.
CREATE INDEX assets_parent_idx ON assets (parent_id, created_at DESC, id DESC) WHERE parent_id IS NOT NULL;
CREATE INDEX assets_root_parent_idx ON assets (root_parent_id, created_at DESC, id DESC) WHERE root_parent_id IS NOT NULL;
CREATE INDEX assets_inference_idx ON assets (inference_id, created_at DESC, id DESC) WHERE inference_id IS NOT NULL;
-- A model (a shared base model above all) has outputs in many projects: project first.
CREATE INDEX assets_project_model_idx ON assets (project_id, model_id, created_at DESC, id DESC) WHERE model_id IS NOT NULL;
-- Collection membership within a project.
CREATE INDEX assets_collection_ids_idx ON assets USING gin (collection_ids);

-- Public assets of every organisation (privacy=public, public access, /assets/public).
CREATE INDEX assets_public_created_idx ON assets (created_at DESC, id DESC) WHERE privacy = 'public';
CREATE INDEX assets_public_updated_idx ON assets (updated_at DESC, id DESC) WHERE privacy = 'public';
CREATE INDEX assets_public_type_idx ON assets (type, created_at DESC, id DESC) WHERE privacy = 'public';
CREATE INDEX assets_public_model_idx ON assets (model_id, created_at DESC, id DESC) WHERE privacy = 'public' AND model_id IS NOT NULL;
CREATE INDEX assets_public_tags_idx ON assets USING gin (tags) WHERE privacy = 'public';

CREATE TABLE asset_snapshots (
  id bigserial PRIMARY KEY,
  asset_id text NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
  author_id text NOT NULL,
  raw_data text NOT NULL,
  hash text NOT NULL,
  taken_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX asset_snapshots_asset_id_taken_at_id_idx ON asset_snapshots (asset_id, taken_at DESC, id DESC);

CREATE TABLE object_cleanup (
  id bigserial PRIMARY KEY,
  object_key text NOT NULL,
  due_at timestamptz(3) NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  last_error text,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX object_cleanup_due_at_idx ON object_cleanup (due_at);
CREATE INDEX object_cleanup_object_key_idx ON object_cleanup (object_key);
