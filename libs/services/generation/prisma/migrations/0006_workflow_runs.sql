-- Workflow runs (docs/workflows.md: Running): one row per run, keyed by its job (job-service owns the
-- job, its charge and its facts; this is the run's own state), and one row per step: what it was
-- priced, the child job that runs it, its status and the assets it made (what later steps bind to).
CREATE TABLE workflow_runs (
  job_id text PRIMARY KEY,
  workflow_id text NOT NULL,
  project_id text NOT NULL,
  team_id text NOT NULL,
  author_id text,
  status text NOT NULL DEFAULT 'running',
  inputs jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE TABLE workflow_run_steps (
  job_id text NOT NULL REFERENCES workflow_runs (job_id) ON DELETE CASCADE,
  step_id text NOT NULL,
  position integer NOT NULL,
  step jsonb NOT NULL,
  units integer NOT NULL,
  status text NOT NULL DEFAULT 'pending',
  child_job_id text,
  asset_ids text[] NOT NULL DEFAULT '{}',
  failure_reason text,
  updated_at timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (job_id, step_id)
);
CREATE INDEX workflow_run_steps_status_updated_at_idx ON workflow_run_steps (status, updated_at);
