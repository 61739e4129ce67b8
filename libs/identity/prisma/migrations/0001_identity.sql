CREATE TABLE teams (
  id text PRIMARY KEY,
  name text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);

CREATE TABLE projects (
  id text PRIMARY KEY,
  team_id text NOT NULL REFERENCES teams(id),
  name text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX projects_team_id_idx ON projects (team_id);

-- API keys: the secret is stored as a SHA-256 hash. Secrets are 32 random bytes,
-- so a slow password hash adds nothing but latency to every request.
CREATE TABLE api_keys (
  id text PRIMARY KEY,
  team_id text NOT NULL REFERENCES teams(id),
  project_id text REFERENCES projects(id),
  role text NOT NULL CHECK (role IN ('admin', 'member')),
  scopes text[] NOT NULL DEFAULT '{}',
  secret_hash text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  revoked_at timestamptz(3)
);
CREATE INDEX api_keys_team_id_idx ON api_keys (team_id);
