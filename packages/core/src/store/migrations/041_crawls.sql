-- Crawls (POST /v1/crawls): a map of the site, then classic-scraper runs of at most 100 of its URLs
-- each (core/src/crawl/crawls.ts). One `crawl.run` job drives a crawl; a URL gets its run in the
-- transaction that creates the run, so a crashed or resumed crawl never runs a URL twice.
CREATE TABLE crawls (
  id text PRIMARY KEY,
  owner_id text NOT NULL REFERENCES owners(id) ON DELETE CASCADE,
  scraper_id text NOT NULL,
  url text NOT NULL,
  status text NOT NULL CHECK (status IN ('discovering', 'running', 'stopped', 'completed', 'failed')),
  -- limit, include, exclude, sitemap, same_domain, and the politeness policy in force.
  options jsonb NOT NULL,
  callback_url text,
  discovered integer NOT NULL DEFAULT 0,
  -- What discovery found beyond the scraper's pages (the map's counters), for the status body.
  map jsonb,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz
);
CREATE INDEX crawls_owner_idx ON crawls (owner_id, created_at DESC);

CREATE TABLE crawl_urls (
  crawl_id text NOT NULL REFERENCES crawls(id) ON DELETE CASCADE,
  position integer NOT NULL,
  url text NOT NULL,
  source text NOT NULL,
  found_in text,
  -- The run that scrapes it (null: not started yet).
  run_id text,
  PRIMARY KEY (crawl_id, position),
  UNIQUE (crawl_id, url)
);
CREATE INDEX crawl_urls_pending_idx ON crawl_urls (crawl_id, position) WHERE run_id IS NULL;
CREATE INDEX crawl_urls_run_idx ON crawl_urls (run_id);
