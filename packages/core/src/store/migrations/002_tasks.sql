-- Asynchronous extraction tasks (and, later, agent tasks) and per-owner usage.
CREATE TABLE tasks (
  id text PRIMARY KEY,
  owner_id text NOT NULL REFERENCES owners(id) ON DELETE CASCADE,
  kind text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'running', 'completed', 'failed', 'stopped')),
  request jsonb NOT NULL,
  data jsonb,
  message text,
  error text,
  error_code text,
  callback_url text,
  driver text,
  credits_charged numeric,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz
);
CREATE INDEX tasks_owner_idx ON tasks (owner_id, created_at DESC);

-- What each operation cost: pages read, model calls and tokens, credits charged.
CREATE TABLE usage_events (
  id bigserial PRIMARY KEY,
  owner_id text NOT NULL REFERENCES owners(id) ON DELETE CASCADE,
  operation text NOT NULL,
  subject text,
  pages integer NOT NULL DEFAULT 0,
  model_calls integer NOT NULL DEFAULT 0,
  input_tokens integer NOT NULL DEFAULT 0,
  output_tokens integer NOT NULL DEFAULT 0,
  credits numeric NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX usage_events_owner_idx ON usage_events (owner_id, created_at DESC);
