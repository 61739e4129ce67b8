-- The payload as the text the intake wrote, not jsonb: jsonb reorders keys (by
-- length, then bytes), so the log showed {"id","data","type"} while receivers got
-- {"id","type","data"}. json keeps the text verbatim, so the log shows the bytes
-- that were sent. Nothing filters or indexes on the payload, and json still has
-- the -> / ->> operators. Rows written before keep jsonb's order. Rewrites the
-- table under an exclusive lock: run it when the backlog is small.
ALTER TABLE webhook_deliveries ALTER COLUMN payload TYPE json USING payload::json;
