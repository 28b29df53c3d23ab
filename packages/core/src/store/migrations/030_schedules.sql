-- Monitoring (Gleaner extension): schedules that start runs on pg-boss's scheduler, the change
-- tracking between their runs, and the snapshot archive of the pages runs fetched.
CREATE TABLE schedules (
  id text PRIMARY KEY,
  owner_id text NOT NULL REFERENCES owners(id) ON DELETE CASCADE,
  -- No foreign key: a schedule whose scraper is deleted stops (status 'stopped') and stays readable.
  scraper_id text NOT NULL,
  name text,
  cron text NOT NULL,
  timezone text NOT NULL DEFAULT 'UTC',
  -- What each firing runs: {url, parameters, max_pages} as POST /v1/scrapers/run_async takes them.
  request jsonb NOT NULL,
  callback_url text,
  notify text NOT NULL CHECK (notify IN ('always', 'changes', 'failures')),
  -- Fields that identify a record across runs (null: the documented stable hash).
  key_attributes jsonb,
  snapshots boolean NOT NULL DEFAULT true,
  status text NOT NULL CHECK (status IN ('active', 'paused', 'stopped')),
  status_reason text,
  health text NOT NULL DEFAULT 'ok' CHECK (health IN ('ok', 'degraded')),
  health_reason text,
  health_changed_at timestamptz,
  -- Finished runs in a row that failed, and the records of the last run that had some.
  consecutive_failures integer NOT NULL DEFAULT 0,
  last_records integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX schedules_owner_idx ON schedules (owner_id, created_at DESC);
CREATE INDEX schedules_scraper_idx ON schedules (scraper_id);

-- A run started by a schedule names it, and the pg-boss job of the firing: one run per firing, even
-- when the firing's job is delivered twice.
ALTER TABLE runs ADD COLUMN schedule_id text;
ALTER TABLE runs ADD COLUMN firing_id text;
CREATE UNIQUE INDEX runs_firing_idx ON runs (firing_id) WHERE firing_id IS NOT NULL;
CREATE INDEX runs_schedule_idx ON runs (schedule_id, created_at DESC) WHERE schedule_id IS NOT NULL;

-- What changed in a scheduled run against the schedule's earlier runs (written once per run).
CREATE TABLE run_changes (
  run_id text PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  schedule_id text NOT NULL,
  baseline_run_id text,
  summary jsonb NOT NULL,
  records jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- The archive: each fetched document stored once by its SHA-256 (gzip), shared by every page that
-- served the same bytes; run_item_pages says which run item fetched which document.
CREATE TABLE snapshots (
  hash text PRIMARY KEY,
  bytes integer NOT NULL,
  stored_bytes integer NOT NULL,
  content bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE run_item_pages (
  run_id text NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  position integer NOT NULL,
  page integer NOT NULL,
  url text NOT NULL,
  driver text,
  hash text NOT NULL,
  fetched_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (run_id, position, page)
);
CREATE INDEX run_item_pages_hash_idx ON run_item_pages (hash);
CREATE INDEX run_item_pages_fetched_idx ON run_item_pages (fetched_at);

-- The owner's default for runs that do not say (`snapshots` in the run request wins).
CREATE TABLE snapshot_settings (
  owner_id text PRIMARY KEY REFERENCES owners(id) ON DELETE CASCADE,
  runs boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now()
);
