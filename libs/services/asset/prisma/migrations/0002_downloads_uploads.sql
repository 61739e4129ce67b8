-- asset-service: batch download archives and multipart uploads (docs/assets.md,
-- "Batch downloads" and "Uploads"). Both are work queues claimed by workers of
-- every replica with FOR UPDATE SKIP LOCKED under a lease: a crash loses nothing,
-- the lease runs out and another worker takes the row again.

-- One archive export per job of kind asset-download (job-service owns the job).
CREATE TABLE asset_downloads (
  job_id text PRIMARY KEY,
  team_id text NOT NULL,
  project_id text NOT NULL,
  author_id text,
  -- The assets of the archive, in archive order (resolved when the job was asked for).
  asset_ids text[] NOT NULL,
  -- { fileNameTemplate?, flat }
  options jsonb NOT NULL DEFAULT '{}',
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'canceled')),
  attempts integer NOT NULL DEFAULT 0,
  -- A queued row is claimable from then on (retries back off).
  available_at timestamptz(3) NOT NULL DEFAULT now(),
  claimed_by text,
  lease_until timestamptz(3),
  archive_key text,
  archive_size bigint,
  -- Assets deleted between the request and the archive: left out and reported.
  skipped_asset_ids text[] NOT NULL DEFAULT '{}',
  error text,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX asset_downloads_queued_idx ON asset_downloads (available_at) WHERE status = 'queued';
CREATE INDEX asset_downloads_running_idx ON asset_downloads (lease_until) WHERE status = 'running';
CREATE INDEX asset_downloads_finished_idx ON asset_downloads (updated_at) WHERE status IN ('succeeded', 'failed', 'canceled');

-- POST /v1/uploads: a presigned multipart upload, then its import as an asset.
CREATE TABLE uploads (
  id text PRIMARY KEY,
  team_id text NOT NULL,
  project_id text NOT NULL,
  author_id text NOT NULL,
  -- What the client declared: asset | image | video | audio | 3d | avatar
  kind text NOT NULL,
  file_name text NOT NULL,
  original_file_name text NOT NULL,
  content_type text NOT NULL,
  file_size bigint NOT NULL,
  parts_count integer NOT NULL,
  part_size bigint NOT NULL,
  object_key text NOT NULL,
  multipart_upload_id text NOT NULL,
  parent_id text,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'validating', 'imported', 'failed')),
  error_message text,
  -- The asset created by the import (entityId in the API).
  asset_id text,
  attempts integer NOT NULL DEFAULT 0,
  claimed_by text,
  lease_until timestamptz(3),
  -- A pending upload not completed by then is aborted.
  expires_at timestamptz(3) NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now(),
  CHECK (file_size > 0 AND parts_count > 0 AND part_size > 0)
);
CREATE INDEX uploads_validating_idx ON uploads (lease_until NULLS FIRST) WHERE status = 'validating';
CREATE INDEX uploads_pending_expiry_idx ON uploads (expires_at) WHERE status = 'pending';
CREATE INDEX uploads_finished_idx ON uploads (updated_at) WHERE status IN ('imported', 'failed');
