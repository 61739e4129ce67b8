-- The model registry: one project's models (private ones are seen by that project only, public ones
-- by every team), their training images (assets of the same project, by id) and what training left
-- behind (the learned files in object storage). Job state stays in job-service: a model keeps only
-- the id of its latest training job and the outcome the job's lifecycle facts reported.
CREATE TABLE models (
  id text PRIMARY KEY,
  team_id text NOT NULL,
  project_id text NOT NULL,
  author_id text,
  name text,
  short_description text,
  type text NOT NULL,
  privacy text NOT NULL DEFAULT 'private',
  status text NOT NULL DEFAULT 'new',
  capabilities text[] NOT NULL DEFAULT '{}',
  inputs jsonb NOT NULL DEFAULT '[]',
  tags text[] NOT NULL DEFAULT '{}',
  collection_ids text[] NOT NULL DEFAULT '{}',
  parameters jsonb,
  training_job_id text,
  training_progress jsonb,
  training_stats jsonb,
  artifacts jsonb,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now()
);
-- GET /v1/models (private): a project's models, newest first (keyset).
CREATE INDEX models_project_id_created_at_id_idx ON models (project_id, created_at DESC, id DESC);
-- GET /v1/models?privacy=public: every team's public models, newest first.
CREATE INDEX models_privacy_created_at_id_idx ON models (privacy, created_at DESC, id DESC);
-- Lifecycle facts find the model by the job they are about.
CREATE INDEX models_training_job_id_idx ON models (training_job_id);

CREATE TABLE model_training_images (
  model_id text NOT NULL REFERENCES models(id) ON DELETE CASCADE,
  asset_id text NOT NULL,
  name text NOT NULL DEFAULT '',
  description text NOT NULL DEFAULT '',
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (model_id, asset_id)
);
