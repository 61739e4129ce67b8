-- Workflows (docs/workflows.md): a stored graph of generation steps of one project. `inputs` are the
-- workflow's declared inputs, `flow` its steps (each a generate mode or a custom model, its inputs
-- static values or bindings to the workflow's inputs and earlier steps' outputs), both validated by
-- the service on every write (acyclic, modes known, bindings resolve, static params valid).
CREATE TABLE workflows (
  id text PRIMARY KEY,
  project_id text NOT NULL,
  team_id text NOT NULL,
  author_id text,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  short_description text NOT NULL DEFAULT '',
  privacy text NOT NULL DEFAULT 'private',
  tag_set text[] NOT NULL DEFAULT '{}',
  inputs jsonb NOT NULL DEFAULT '[]',
  flow jsonb NOT NULL DEFAULT '[]',
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX workflows_project_id_created_at_id_idx ON workflows (project_id, created_at DESC, id DESC);
CREATE INDEX workflows_privacy_created_at_id_idx ON workflows (privacy, created_at DESC, id DESC);
