-- Scraper runs (POST /v1/scrapers/run, run_async) and their items: one item (and one run.item job)
-- per URL. The run is finished in the transaction that records its last item.
CREATE TABLE runs (
  id text PRIMARY KEY,
  owner_id text NOT NULL REFERENCES owners(id) ON DELETE CASCADE,
  -- No foreign key: a run stays readable after its scraper is deleted (its items then fail).
  scraper_id text NOT NULL,
  status text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'completed_partial', 'failed')),
  -- How `url` was given: 'single' (a string, or omitted) or 'list'; decides the shape of POST /run's data.
  url_form text NOT NULL CHECK (url_form IN ('single', 'list')),
  total integer NOT NULL CHECK (total > 0),
  -- Items recorded (completed or failed); the run finishes when completed = total.
  completed integer NOT NULL DEFAULT 0,
  failed integer NOT NULL DEFAULT 0,
  -- The accepted options: max_pages, proxy_country, cookies, pagination_detection_url, parameters, source.
  options jsonb NOT NULL,
  callback_url text,
  pages integer NOT NULL DEFAULT 0,
  model_calls integer NOT NULL DEFAULT 0,
  -- Everything charged for the run, and the part of it that regenerations after drift cost (those
  -- are recorded in usage as 'scraper_heal'; the run's own usage event leaves them out).
  credits_charged numeric NOT NULL DEFAULT 0,
  heal_credits numeric NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz
);
CREATE INDEX runs_owner_idx ON runs (owner_id, created_at DESC);

CREATE TABLE run_items (
  run_id text NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  position integer NOT NULL,
  -- The URL as the caller wrote it (the key of the run's `data` map).
  url text NOT NULL,
  status text NOT NULL CHECK (status IN ('queued', 'running', 'completed', 'failed')),
  records jsonb,
  error text,
  error_code text,
  -- The driver of the first page ('http', 'playwright', ...) and the recipe version that produced the records.
  driver text,
  recipe_version integer,
  -- True when the item ran again on a recipe regenerated after layout drift.
  healed boolean NOT NULL DEFAULT false,
  pages integer NOT NULL DEFAULT 0,
  -- Pages read by the recipe, plus any regeneration this item paid for.
  credits numeric NOT NULL DEFAULT 0,
  -- Handler starts (a redelivered job counts again; it never records twice).
  attempts integer NOT NULL DEFAULT 0,
  started_at timestamptz,
  finished_at timestamptz,
  PRIMARY KEY (run_id, position)
);
