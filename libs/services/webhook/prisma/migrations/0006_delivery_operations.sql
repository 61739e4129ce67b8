-- Delivery operations (docs/webhooks.md, "Delivery operations (extensions of the spec)").
--
-- 1. A resend is a delivery of its own (own id, own attempts) carrying the same body as the
--    event's first delivery. resend_of names that first delivery: the `id` receivers see in the
--    body. Null for first deliveries. Nullable, no default: adding it rewrites nothing.
ALTER TABLE webhook_deliveries ADD COLUMN resend_of text;
-- Finds an event's resends (is one pending or successful? then resend and recover skip it).
-- Partial: first deliveries, nearly every row, write no entry.
CREATE INDEX webhook_deliveries_resend_of_idx ON webhook_deliveries (resend_of) WHERE resend_of IS NOT NULL;
-- 2. An endpoint's failed deliveries, newest first: the delivery log filtered by status=failed and
--    the recovery walk read only them instead of filtering the whole log (on an endpoint with
--    200,000 deliveries, 1 % failed, a filter matching nothing read 7,146 buffers in 35 ms through
--    the listing index, 2,016 in 2.5 ms here). Only deliveries that end failed get an entry, when
--    their last attempt is recorded (an update that already writes a new index entry everywhere:
--    it changes next_attempt_at); successful ones, the bulk, write nothing here.
CREATE INDEX webhook_deliveries_failed_idx ON webhook_deliveries (endpoint_id, created_at DESC, id DESC)
  WHERE status = 'failed';
