-- Callback deliveries: one row per signed POST of a finished task's or run's status body.
-- id is the Standard Webhooks `webhook-id`, the same on every attempt; body holds the exact
-- serialized JSON that is signed and sent, so every attempt carries identical bytes.
CREATE TABLE callback_deliveries (
  id text PRIMARY KEY,
  owner_id text NOT NULL REFERENCES owners(id) ON DELETE CASCADE,
  -- What the callback reports on: 'task:<id>' or 'run:<id>'.
  subject text NOT NULL,
  url text NOT NULL,
  body text NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  -- HTTP status of the last answer (null when there was none: refused, timed out, blocked).
  last_status integer,
  last_error text,
  last_error_code text,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_attempt_at timestamptz,
  delivered_at timestamptz,
  -- Earliest time of the next attempt (the job queue adds jitter on top); null once settled.
  next_attempt_at timestamptz
);
CREATE INDEX callback_deliveries_owner_idx ON callback_deliveries (owner_id);
CREATE INDEX callback_deliveries_subject_idx ON callback_deliveries (subject);
