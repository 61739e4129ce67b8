-- Models this service has seen deleted (from generation-service's model.deleted facts). An add that
-- checked the model with the registry just before it was deleted must not re-insert it after the
-- fact was applied (same rule as deleted_assets).
CREATE TABLE deleted_models (
  model_id text PRIMARY KEY,
  project_id text NOT NULL,
  deleted_at timestamptz(3) NOT NULL DEFAULT now()
);
