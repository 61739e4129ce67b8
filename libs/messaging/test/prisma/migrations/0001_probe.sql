-- Deliberately no unique key on (subject, sequence): a handler applied twice
-- must show up as an extra row and a wrong balance, not as a constraint error.
CREATE TABLE ledger (
  id bigserial PRIMARY KEY,
  event_id text NOT NULL,
  subject text NOT NULL,
  sequence integer NOT NULL,
  amount integer NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);
CREATE INDEX ledger_subject_idx ON ledger (subject);

CREATE TABLE balances (
  subject text PRIMARY KEY,
  total bigint NOT NULL DEFAULT 0,
  events integer NOT NULL DEFAULT 0,
  last_sequence integer NOT NULL DEFAULT -1,
  out_of_order integer NOT NULL DEFAULT 0
);
