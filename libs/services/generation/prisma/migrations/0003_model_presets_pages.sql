-- The rest of upstream's model routes (docs/models.md):
-- presets: stored generation parameters of a model, applied when POST /v1/generate/custom/{modelId}
-- names one (`presetId`); at most one default per model (a partial unique index, so two concurrent
-- "make default" requests cannot both win).
CREATE TABLE model_presets (
  id text PRIMARY KEY,
  model_id text NOT NULL REFERENCES models(id) ON DELETE CASCADE,
  author_id text,
  parameters jsonb NOT NULL,
  is_default boolean NOT NULL DEFAULT false,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX model_presets_model_id_created_at_idx ON model_presets (model_id, created_at);
CREATE UNIQUE INDEX model_presets_one_default_idx ON model_presets (model_id) WHERE is_default;

-- The markdown description page, the example assets (in display order) and the training image pairs
-- ({ sourceId, targetId, instruction }[], replaced as a whole by PUT /training-images/pairs).
ALTER TABLE models ADD COLUMN description text NOT NULL DEFAULT '';
ALTER TABLE models ADD COLUMN example_asset_ids text[] NOT NULL DEFAULT '{}';
ALTER TABLE models ADD COLUMN training_pairs jsonb NOT NULL DEFAULT '[]';
