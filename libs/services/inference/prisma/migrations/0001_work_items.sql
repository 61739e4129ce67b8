-- The inference-worker's queue of generation work (operational state only: job-service owns jobs).
CREATE TABLE work_items (
  job_id text PRIMARY KEY,
  job_type text NOT NULL,
  mode text NOT NULL,
  team_id text NOT NULL,
  project_id text NOT NULL,
  author_id text,
  model_id text,
  input jsonb NOT NULL,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed', 'canceled', 'ignored')),
  attempts integer NOT NULL DEFAULT 0,
  available_at timestamptz(3) NOT NULL DEFAULT now(),
  claim_token text,
  lease_until timestamptz(3),
  last_error text,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now()
);
-- Claiming: queued items by due time; running items whose lease expired.
CREATE INDEX work_items_status_available_at_idx ON work_items (status, available_at);
-- Retention purge of finished items.
CREATE INDEX work_items_updated_at_idx ON work_items (updated_at);
