-- Scrapers (classic "extractor" ones now, agentic ones later) and their versioned recipes.
CREATE TABLE scrapers (
  id text PRIMARY KEY,
  owner_id text NOT NULL REFERENCES owners(id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('extractor', 'agentic')),
  name text NOT NULL,
  -- Classic scrapers generate code: 'code'.
  mode text NOT NULL DEFAULT 'code',
  -- The primary URL (the sample the scraper was built on); runs without a url use it.
  url text,
  -- null: created by POST /v1/extractor/new and never generated.
  status text CHECK (status IN ('generating', 'ready', 'failed')),
  -- Why the last build failed (a message a user can act on) and its stable code.
  error text,
  error_code text,
  -- Normalised attributes (list form: [{name, description, type}]) and the prompt of the last build.
  attributes jsonb NOT NULL DEFAULT '[]',
  prompt text NOT NULL DEFAULT '',
  -- The last generation request as accepted (url or content, proxy_country, cookies).
  request jsonb,
  -- Identifies the build in progress: a stale build job (redelivered, superseded) must not overwrite a newer one.
  build_id text,
  -- The current recipe version (scraper_recipes.version); null until a build succeeds.
  recipe_version integer,
  -- What the current recipe produced on its sample page.
  sample_data jsonb,
  -- The driver the sample page needed ('http', 'playwright', ...): runs start there.
  sample_driver text,
  -- Agentic scrapers: the recorded script and its named parameters (spec 2.4).
  script jsonb,
  parameters_schema jsonb,
  -- Layout drift seen by a run and not yet healed.
  drift_detected_at timestamptz,
  drift_reason text,
  -- A self-heal that failed on this recipe version, and when: later drifts of the same version do not
  -- pay for another regeneration for a while (a site serving a block page would cost one per URL).
  heal_failed_version integer,
  heal_failed_reason text,
  heal_failed_at timestamptz,
  credits_charged numeric NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX scrapers_owner_idx ON scrapers (owner_id, created_at DESC);

-- Every recipe a scraper has had; runs record the version they used.
CREATE TABLE scraper_recipes (
  scraper_id text NOT NULL REFERENCES scrapers(id) ON DELETE CASCADE,
  version integer NOT NULL,
  recipe jsonb NOT NULL,
  sample_url text,
  sample_data jsonb,
  -- 'generated', or 'healed: <drift reason>'.
  reason text NOT NULL DEFAULT 'generated',
  model_calls integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (scraper_id, version)
);
