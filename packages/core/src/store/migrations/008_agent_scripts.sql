-- Agentic scrapers' scripts, versioned like classic recipes. For an agentic scraper,
-- scrapers.recipe_version is the current script version (runs record it per item), scrapers.script
-- a copy of that version's script and scrapers.parameters_schema its parameters.
CREATE TABLE scraper_scripts (
  scraper_id text NOT NULL REFERENCES scrapers(id) ON DELETE CASCADE,
  version integer NOT NULL,
  script jsonb NOT NULL,
  parameters_schema jsonb,
  sample_url text,
  sample_data jsonb,
  -- 'generated', 'healed: <drift reason>' or 'cloned from ...'.
  reason text NOT NULL DEFAULT 'generated',
  model_calls integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (scraper_id, version)
);

-- The pg-boss job of the build in progress: DELETE of an agentic scraper cancels it (a queued build
-- never starts; a running one is stopped by its build watch).
ALTER TABLE scrapers ADD COLUMN build_job_id text;
