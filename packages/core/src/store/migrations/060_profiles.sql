-- Browser profiles (Gleaner extension, docs/api.md "Profiles"): a named, per-owner browser state
-- (cookies, local storage) sealed with auth.secretsKey (AES-256-GCM, core/src/secrets/vault.ts).
-- Only the names, the cookie domains and the counts are readable; the values are in `state`,
-- encrypted. A profile saved by an agentic scraper keeps its id: a run that finds the profile
-- expired replays that scraper's sign-in and saves the profile again.
CREATE TABLE profiles (
  id text PRIMARY KEY,
  owner_id text NOT NULL REFERENCES owners(id) ON DELETE CASCADE,
  name text NOT NULL,
  state text NOT NULL,
  domains text[] NOT NULL DEFAULT '{}',
  cookie_count integer NOT NULL DEFAULT 0,
  source text NOT NULL CHECK (source IN ('import', 'agent_task', 'agentic_scraper')),
  scraper_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (owner_id, name)
);
