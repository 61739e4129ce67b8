-- Creative units a running job has already consumed of its charge (a workflow run's finished steps,
-- reported with its progress): a cancel gives back the charge minus these (docs/credits.md).
ALTER TABLE jobs ADD COLUMN consumed_units integer NOT NULL DEFAULT 0 CHECK (consumed_units >= 0);
