-- W3C traceparent of the consumer span that created the delivery: each attempt's
-- span continues that trace (HTTP request -> Kafka -> webhook attempt). Null when
-- tracing is off.
ALTER TABLE webhook_deliveries ADD COLUMN trace_context text;
