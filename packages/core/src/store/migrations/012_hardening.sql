-- How each task and run item was to be fetched with respect to its proxy_country: 'direct',
-- 'proxy:<Country>', 'proxy:random' or 'direct:no proxy for <Country>' (network.unproxiedCountry).
ALTER TABLE tasks ADD COLUMN proxy text;
ALTER TABLE run_items ADD COLUMN proxy text;

-- Per-owner request counts in fixed windows (limits.requestsPerMinute): one row per owner and
-- minute, shared by every API process on this Postgres. Old windows are deleted as they pass.
CREATE TABLE request_windows (
  owner_id text NOT NULL REFERENCES owners(id) ON DELETE CASCADE,
  window_start timestamptz NOT NULL,
  count integer NOT NULL,
  PRIMARY KEY (owner_id, window_start)
);

-- limits.concurrentJobs counts an owner's unfinished background work; these keep that cheap.
CREATE INDEX tasks_active_idx ON tasks (owner_id) WHERE status IN ('pending', 'running');
CREATE INDEX runs_active_idx ON runs (owner_id) WHERE status IN ('queued', 'running');
CREATE INDEX scrapers_generating_idx ON scrapers (owner_id) WHERE status = 'generating';
