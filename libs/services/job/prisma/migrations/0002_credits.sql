-- Creative units (docs/credits.md): plans per billing period, the current plan of each metered
-- team, the charge/refund ledger, and credit alert thresholds with their state per period.

-- One billing period of a team. A new period_start starts a new period at full balance.
CREATE TABLE credit_plans (
  id serial PRIMARY KEY,
  team_id text NOT NULL,
  period_start timestamptz(3) NOT NULL,
  period_end timestamptz(3) NOT NULL,
  total_period_units integer NOT NULL CHECK (total_period_units >= 0),
  -- Charged minus refunded in this period; remaining = max(0, total - used).
  used_units integer NOT NULL DEFAULT 0 CHECK (used_units >= 0),
  created_at timestamptz(3) NOT NULL,
  updated_at timestamptz(3) NOT NULL,
  CHECK (period_end > period_start)
);
CREATE UNIQUE INDEX credit_plans_team_id_period_start_key ON credit_plans (team_id, period_start);

-- A team's current plan (NULL: none yet): the row every charge, refund and plan change of the
-- team locks FOR UPDATE, so concurrent charges never overdraw.
CREATE TABLE credit_accounts (
  team_id text PRIMARY KEY,
  plan_id integer REFERENCES credit_plans(id),
  updated_at timestamptz(3) NOT NULL
);
CREATE UNIQUE INDEX credit_accounts_plan_id_key ON credit_accounts (plan_id);

-- The ledger. Unique (job_id, kind): a job is charged at most once and refunded at most once.
CREATE TABLE credit_movements (
  id bigserial PRIMARY KEY,
  team_id text NOT NULL,
  job_id text NOT NULL,
  -- The period charged (a refund returns to the same one); NULL: the team had no plan.
  plan_id integer REFERENCES credit_plans(id),
  kind text NOT NULL CHECK (kind IN ('charge', 'refund')),
  units integer NOT NULL CHECK (units > 0),
  reason text CHECK (reason IN ('failure', 'canceled')),
  created_at timestamptz(3) NOT NULL
);
CREATE UNIQUE INDEX credit_movements_job_id_kind_key ON credit_movements (job_id, kind);
CREATE INDEX credit_movements_plan_id_idx ON credit_movements (plan_id);
CREATE INDEX credit_movements_team_id_plan_id_idx ON credit_movements (team_id, plan_id);

-- Credit alerts of a team: percent of the period's units, or absolute remaining units.
CREATE TABLE credit_alert_thresholds (
  id serial PRIMARY KEY,
  team_id text NOT NULL,
  unit text NOT NULL CHECK (unit IN ('percent', 'absolute')),
  value double precision NOT NULL CHECK (value > 0),
  created_at timestamptz(3) NOT NULL,
  CHECK (unit <> 'percent' OR value <= 100)
);
CREATE UNIQUE INDEX credit_alert_thresholds_team_id_unit_value_key ON credit_alert_thresholds (team_id, unit, value);

-- A threshold's state in one period; no row = armed and never crossed in that period, so a
-- new period re-arms every threshold without touching a row.
CREATE TABLE credit_alert_states (
  threshold_id integer NOT NULL REFERENCES credit_alert_thresholds(id) ON DELETE CASCADE,
  plan_id integer NOT NULL REFERENCES credit_plans(id) ON DELETE CASCADE,
  armed boolean NOT NULL,
  crossings integer NOT NULL CHECK (crossings >= 0),
  last_crossed_at timestamptz(3) NOT NULL,
  PRIMARY KEY (threshold_id, plan_id)
);
CREATE INDEX credit_alert_states_plan_id_idx ON credit_alert_states (plan_id);
