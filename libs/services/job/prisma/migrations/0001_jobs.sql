-- Jobs: one row per job, owned by a project (ownerId = project_id).
CREATE TABLE jobs (
  id text PRIMARY KEY,
  job_type text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('generation', 'asset-download', 'model-download', 'model-training')),
  status text NOT NULL CHECK (status IN ('pending', 'queued', 'warming-up', 'in-progress', 'finalizing', 'success', 'failure', 'canceled')),
  progress double precision NOT NULL DEFAULT 0 CHECK (progress >= 0 AND progress <= 1),
  team_id text NOT NULL,
  project_id text NOT NULL,
  author_id text,
  model_id text,
  input jsonb NOT NULL DEFAULT '{}'::jsonb,
  output jsonb NOT NULL DEFAULT '{}'::jsonb,
  asset_ids text[] NOT NULL DEFAULT '{}',
  failure_reason text,
  creative_units_cost integer NOT NULL DEFAULT 0 CHECK (creative_units_cost >= 0),
  idempotency_key text,
  -- input.hideResults was true: GET /v1/jobs?hideResults=false leaves the job out.
  hide_results boolean NOT NULL DEFAULT false,
  created_at timestamptz(3) NOT NULL,
  updated_at timestamptz(3) NOT NULL
);
-- A retried create with the same key returns the first job (NULL keys never collide).
CREATE UNIQUE INDEX jobs_project_id_idempotency_key_key ON jobs (project_id, idempotency_key);
-- GET /v1/jobs: newest first, keyset on (created_at, id), scoped to a project or a team.
CREATE INDEX jobs_project_id_created_at_id_idx ON jobs (project_id, created_at DESC, id DESC);
CREATE INDEX jobs_team_id_created_at_id_idx ON jobs (team_id, created_at DESC, id DESC);
CREATE INDEX jobs_project_id_status_created_at_id_idx ON jobs (project_id, status, created_at DESC, id DESC);
CREATE INDEX jobs_project_id_job_type_created_at_id_idx ON jobs (project_id, job_type, created_at DESC, id DESC);

-- Every status a job reached, in order (id is the order; date is when).
CREATE TABLE job_status_history (
  id bigserial PRIMARY KEY,
  job_id text NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('pending', 'queued', 'warming-up', 'in-progress', 'finalizing', 'success', 'failure', 'canceled')),
  date timestamptz(3) NOT NULL
);
CREATE INDEX job_status_history_job_id_id_idx ON job_status_history (job_id, id);
