-- The backend a model names (a name from the inference worker's INFERENCE_BACKENDS_FILE): its
-- trainings run there (a Replicate training) and generations naming the model go there, with the
-- version its training made (docs/models.md, "Models on a backend").
ALTER TABLE models ADD COLUMN backend text;
