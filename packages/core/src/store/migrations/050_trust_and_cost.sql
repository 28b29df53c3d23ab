-- Trust and cost (docs/api.md, "Gleaner extensions"): the grounding check's count of values a page
-- did not support, per usage event; the owner's settings (grounding policy, day and month budgets).
ALTER TABLE usage_events ADD COLUMN unsupported_values integer NOT NULL DEFAULT 0;

CREATE TABLE owner_settings (
  owner_id text PRIMARY KEY REFERENCES owners(id) ON DELETE CASCADE,
  grounding_policy text CHECK (grounding_policy IN ('keep', 'flag', 'drop')),
  daily_credits numeric CHECK (daily_credits >= 0),
  monthly_credits numeric CHECK (monthly_credits >= 0),
  daily_tokens bigint CHECK (daily_tokens >= 0),
  monthly_tokens bigint CHECK (monthly_tokens >= 0),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- The usage report and the budget checks read an owner's events by time.
CREATE INDEX IF NOT EXISTS usage_events_owner_time_idx ON usage_events (owner_id, created_at);

-- Budgets across workers: a run item about to read its URL reserves its estimated credits on the
-- run (under a per-owner advisory lock), and recording the item releases them; the owner's spend
-- counts unfinished runs' charges plus their reservations.
ALTER TABLE runs ADD COLUMN reserved_credits numeric NOT NULL DEFAULT 0;
ALTER TABLE run_items ADD COLUMN reserved_credits numeric NOT NULL DEFAULT 0;
