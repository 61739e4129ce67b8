CREATE TABLE webhook_endpoints (
  id text PRIMARY KEY,
  owner_type text NOT NULL CHECK (owner_type IN ('project', 'team')),
  owner_id text NOT NULL,
  team_id text NOT NULL,
  url text NOT NULL,
  enabled_events text[] NOT NULL CHECK (cardinality(enabled_events) > 0),
  enabled boolean NOT NULL DEFAULT true,
  description text,
  secret_ciphertext text NOT NULL,
  nb_total_calls integer NOT NULL DEFAULT 0,
  nb_failed_calls integer NOT NULL DEFAULT 0,
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX webhook_endpoints_owner_type_owner_id_url_key ON webhook_endpoints (owner_type, owner_id, url);
CREATE INDEX webhook_endpoints_owner_type_owner_id_created_at_idx ON webhook_endpoints (owner_type, owner_id, created_at);

CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  endpoint_id text NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  source_event_id text NOT NULL,
  type text NOT NULL,
  payload jsonb NOT NULL,
  status text NOT NULL CHECK (status IN ('created', 'retrying', 'success', 'failed')),
  attempt_count integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz(3),
  lease_until timestamptz(3),
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  sent_at timestamptz(3),
  updated_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX webhook_deliveries_endpoint_id_source_event_id_key ON webhook_deliveries (endpoint_id, source_event_id);
CREATE INDEX webhook_deliveries_endpoint_id_created_at_id_idx ON webhook_deliveries (endpoint_id, created_at DESC, id DESC);
CREATE INDEX webhook_deliveries_created_at_idx ON webhook_deliveries (created_at);
-- The workers' queue: only pending deliveries, ordered by when they are due.
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at)
  WHERE status IN ('created', 'retrying');

CREATE TABLE webhook_attempts (
  id bigserial PRIMARY KEY,
  delivery_id text NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
  response_status_code integer NOT NULL,
  sent_at timestamptz(3) NOT NULL,
  duration_ms integer NOT NULL,
  error text
);
CREATE INDEX webhook_attempts_delivery_id_sent_at_idx ON webhook_attempts (delivery_id, sent_at);
