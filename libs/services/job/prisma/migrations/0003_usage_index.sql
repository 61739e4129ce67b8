-- GET /v1/usages reads a team's ledger by time (docs/credits.md, "Usages"): the charges and refunds
-- of one team in a period of at most 120 days, without scanning the team's whole history.
CREATE INDEX credit_movements_team_id_created_at_idx ON credit_movements (team_id, created_at);
