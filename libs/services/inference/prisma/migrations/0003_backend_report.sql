-- The last report a backend sent by callback about a job's task (Cog's prediction object, posted
-- to the callback route). Cog keeps no history: once a prediction ends it forgets it, so its final
-- report is kept here, where a restarted or another worker reads it, instead of asking again.
ALTER TABLE work_items ADD COLUMN backend_report jsonb;
