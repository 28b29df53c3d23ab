-- Owners, their API keys, bearer access tokens and callback signing secrets.
CREATE TABLE owners (
  id text PRIMARY KEY,
  name text NOT NULL UNIQUE,
  signing_secret text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- A key is shown once; only its SHA-256 is stored. prefix is the readable, non-secret part
-- used to find the row (and to revoke it).
CREATE TABLE api_keys (
  id text PRIMARY KEY,
  owner_id text NOT NULL REFERENCES owners(id) ON DELETE CASCADE,
  prefix text NOT NULL UNIQUE,
  key_hash bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX api_keys_owner_idx ON api_keys (owner_id);

CREATE TABLE access_tokens (
  id text PRIMARY KEY,
  owner_id text NOT NULL REFERENCES owners(id) ON DELETE CASCADE,
  prefix text NOT NULL UNIQUE,
  token_hash bytea NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE INDEX access_tokens_owner_idx ON access_tokens (owner_id);
