-- Every self-heal attempt of a scraper (classic recipe regeneration or agentic re-recording after
-- layout drift), whether it produced a new version or not: GET /v1/scrapers/{id}/versions shows them.
-- Before this table only a successful heal left a trace (its version's reason) and only the last
-- failed one was kept (scrapers.heal_failed_*).
CREATE TABLE scraper_heals (
  id bigserial PRIMARY KEY,
  scraper_id text NOT NULL REFERENCES scrapers(id) ON DELETE CASCADE,
  -- What the run saw that started the heal (the drift reason).
  trigger text NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('healed', 'failed')),
  -- Why it failed (null when healed).
  detail text,
  -- The version that drifted, and the version the heal saved (null when it failed).
  from_version integer,
  to_version integer,
  url text,
  model_calls integer NOT NULL DEFAULT 0,
  credits numeric NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX scraper_heals_scraper_idx ON scraper_heals (scraper_id, created_at DESC);

-- Heals made before this table: the versions they saved.
INSERT INTO scraper_heals (scraper_id, trigger, outcome, from_version, to_version, url, model_calls, created_at)
SELECT scraper_id, substr(reason, length('healed: ') + 1), 'healed', version - 1, version, sample_url, model_calls, created_at
  FROM (SELECT scraper_id, version, reason, sample_url, model_calls, created_at FROM scraper_recipes
        UNION ALL SELECT scraper_id, version, reason, sample_url, model_calls, created_at FROM scraper_scripts) v
 WHERE reason LIKE 'healed: %';
