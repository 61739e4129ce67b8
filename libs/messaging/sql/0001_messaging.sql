-- Messaging tables of one service, created in that service's own schema (the
-- migrator sets search_path), so a service's outbox rows and inbox marks commit
-- in the same transaction as its state changes.

-- Transactional outbox: events written with the state change that caused them,
-- published by the service's relay in seq order, then deleted.
CREATE TABLE outbox_events (
  seq bigserial PRIMARY KEY,
  id text NOT NULL UNIQUE,
  topic text NOT NULL,
  key text NOT NULL,
  envelope jsonb NOT NULL,
  headers jsonb NOT NULL DEFAULT '{}',
  -- The writing transaction. The relay only publishes rows of transactions older
  -- than every transaction still running: a row whose seq was taken earlier but
  -- that commits later would otherwise be published after its successors.
  txid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  created_at timestamptz(3) NOT NULL DEFAULT now()
);

-- Idempotent consumers: one row per (consumer, event) applied, inserted in the
-- same transaction as the handler's effect; a redelivered event finds it and
-- does nothing.
CREATE TABLE inbox_events (
  consumer text NOT NULL,
  event_id text NOT NULL,
  processed_at timestamptz(3) NOT NULL DEFAULT now(),
  PRIMARY KEY (consumer, event_id)
);
CREATE INDEX inbox_events_processed_at_idx ON inbox_events (processed_at);

-- Dead letters of the in-process transport (embedded mode has no broker and so
-- no <topic>.dlt): rejected or repeatedly failing messages, with the reason.
CREATE TABLE dead_letters (
  id bigserial PRIMARY KEY,
  consumer text NOT NULL,
  topic text NOT NULL,
  event_id text,
  payload text,
  headers jsonb NOT NULL DEFAULT '{}',
  reason text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX dead_letters_consumer_idx ON dead_letters (consumer, created_at);
