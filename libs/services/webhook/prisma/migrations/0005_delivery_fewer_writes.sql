-- Fewer index entries and rows written per delivery. The intake's insert and the outcome's record
-- took 86-94 µs of PostgreSQL per delivery before, 60-62 after (micro-benchmark); the whole bench
-- path's PostgreSQL CPU fell by about a fifth (bench/webhooks/README.md).
--
-- 1. Attempts live in their delivery's row, a jsonb array of a few entries (the spec allows 3
--    attempts), instead of a table of their own: recording one is that row's update, not also an
--    insert into a second table with two indexes and a foreign-key check. Entries keep what the
--    table kept: responseStatusCode, sentAt (ISO 8601 UTC), durationMs, error. The move rewrites
--    every delivery that has attempts, in the migration's transaction: on a large log, run it in a
--    quiet hour.
ALTER TABLE webhook_deliveries ADD COLUMN attempts jsonb NOT NULL DEFAULT '[]';
UPDATE webhook_deliveries d
   SET attempts = a.list
  FROM (SELECT delivery_id,
               jsonb_agg(jsonb_build_object(
                 'responseStatusCode', response_status_code,
                 'sentAt', to_char(sent_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                 'durationMs', duration_ms,
                 'error', error) ORDER BY sent_at, id) AS list
          FROM webhook_attempts
         GROUP BY delivery_id) a
 WHERE d.id = a.delivery_id;
DROP TABLE webhook_attempts;
-- 2. (endpoint, fact) was kept unique twice: the intake marks each fact in the inbox in the same
--    transaction as its deliveries, so a fact seen again never reaches the insert. The unique
--    index cost an index entry and a speculative insertion per delivery.
DROP INDEX webhook_deliveries_endpoint_id_source_event_id_key;
-- 3. The retention purge walks each endpoint's listing index (endpoint_id, created_at desc, id
--    desc) instead of an index of its own.
DROP INDEX webhook_deliveries_created_at_idx;
