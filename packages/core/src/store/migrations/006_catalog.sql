-- The public catalog of scraper APIs (spec 2.8, 4.4) and the names of the deprecated legacy agents
-- (spec 2.10, 4.5).

-- One published entry per slug. The snapshot is a copy of the scraper taken at publish time: later
-- changes to (or the deletion of) that scraper do not change the entry, and clones copy the snapshot.
CREATE TABLE catalog_entries (
  -- URL-safe: lower-case letters, digits and single hyphens (checked in core with a clear message too).
  slug text PRIMARY KEY CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND length(slug) <= 100),
  owner_id text NOT NULL REFERENCES owners(id) ON DELETE CASCADE,
  -- The scraper it was published from; kept for re-publishing, null once that scraper is deleted.
  scraper_id text REFERENCES scrapers(id) ON DELETE SET NULL,
  -- {kind, name, url, mode, attributes, prompt, recipe, sample_data, sample_driver, script, parameters_schema}
  snapshot jsonb NOT NULL,
  -- The public fields of spec 2.8.
  title text NOT NULL,
  description text NOT NULL,
  source_domain text,
  niche text,
  use_case text,
  long_description text,
  value_proposition text,
  sample_url text,
  sample_input jsonb,
  sample_output jsonb,
  faqs jsonb NOT NULL DEFAULT '[]',
  article_links jsonb NOT NULL DEFAULT '[]',
  input_schema jsonb,
  output_schema jsonb,
  published_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX catalog_entries_title_idx ON catalog_entries (title, slug);

-- A legacy agent is a scraper of its owner addressed by name; deleting the scraper drops the name.
CREATE TABLE legacy_agents (
  owner_id text NOT NULL REFERENCES owners(id) ON DELETE CASCADE,
  name text NOT NULL,
  scraper_id text NOT NULL UNIQUE REFERENCES scrapers(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (owner_id, name)
);
