-- The reservation of the latest PUT /train: its training job is created with this idempotency key,
-- so the job's lifecycle facts are recognised (and the job adopted) even when they arrive before the
-- route has recorded the job id the create returned.
ALTER TABLE models ADD COLUMN training_attempt text;
