-- Per-host politeness shared by every worker (core/src/politeness): how many requests a host has in
-- flight (leases), when the next may start, and a 429/503 backoff. Unlogged: this is pacing state,
-- not data; after a Postgres crash it starts empty, which costs one burst at most.
CREATE UNLOGGED TABLE politeness_hosts (
  host text PRIMARY KEY,
  -- The earliest start of the next request (the minimum delay after the last one started).
  next_at timestamptz NOT NULL DEFAULT now(),
  -- A Retry-After (or backoff) in force: nobody requests the host before this.
  backoff_until timestamptz,
  -- 0 = normal; each 429/503 adds one (up to 6), each success takes one off. While above 0 the host
  -- gets one request at a time and a longer delay (politeness.backoffBaseMs per level).
  backoff_level integer NOT NULL DEFAULT 0
);

CREATE UNLOGGED TABLE politeness_leases (
  id bigserial PRIMARY KEY,
  host text NOT NULL,
  -- The process holding it; it renews its leases while alive, so a killed worker's lapse quickly.
  holder text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX politeness_leases_host_idx ON politeness_leases (host);
CREATE INDEX politeness_leases_holder_idx ON politeness_leases (holder);

-- One round trip per request: a lease (wait_ms 0), or no lease and how long to wait (-1: the host
-- is at its concurrency; poll again or wait for a release). The host row's lock serialises one
-- host's callers; other hosts are not touched.
CREATE FUNCTION politeness_acquire(p_host text, p_concurrency int, p_delay_ms int, p_backoff_base_ms int, p_holder text, p_lease_ms int)
RETURNS TABLE (lease_id bigint, wait_ms int) LANGUAGE plpgsql AS $$
DECLARE
  h politeness_hosts;
  t timestamptz := clock_timestamp();
  active int;
  cap int;
  lid bigint;
BEGIN
  SELECT * INTO h FROM politeness_hosts WHERE host = p_host FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO politeness_hosts (host) VALUES (p_host) ON CONFLICT (host) DO NOTHING;
    SELECT * INTO h FROM politeness_hosts WHERE host = p_host FOR UPDATE;
  END IF;
  IF h.backoff_until IS NOT NULL AND h.backoff_until > t THEN
    RETURN QUERY SELECT NULL::bigint, greatest(1, ceil(extract(epoch FROM h.backoff_until - t) * 1000))::int;
    RETURN;
  END IF;
  IF h.next_at > t THEN
    RETURN QUERY SELECT NULL::bigint, greatest(1, ceil(extract(epoch FROM h.next_at - t) * 1000))::int;
    RETURN;
  END IF;
  DELETE FROM politeness_leases WHERE host = p_host AND expires_at <= t;
  SELECT count(*) INTO active FROM politeness_leases WHERE host = p_host;
  cap := CASE WHEN h.backoff_level > 0 THEN 1 ELSE p_concurrency END;
  IF active >= cap THEN
    RETURN QUERY SELECT NULL::bigint, -1;
    RETURN;
  END IF;
  INSERT INTO politeness_leases (host, holder, expires_at) VALUES (p_host, p_holder, t + make_interval(secs => p_lease_ms / 1000.0))
  RETURNING id INTO lid;
  UPDATE politeness_hosts SET next_at = t + make_interval(secs => (p_delay_ms + h.backoff_level * p_backoff_base_ms) / 1000.0)
   WHERE host = p_host;
  RETURN QUERY SELECT lid, 0;
END;
$$;

-- Ends a lease with what the host answered: 'ok' (recovers one backoff level), 'backoff' (a 429/503:
-- nobody requests the host for p_wait_ms, one level more), or 'none' (a network error: no judgement).
CREATE FUNCTION politeness_release(p_lease bigint, p_host text, p_outcome text, p_wait_ms int)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM politeness_leases WHERE id = p_lease;
  IF p_outcome = 'backoff' THEN
    UPDATE politeness_hosts
       SET backoff_level = least(backoff_level + 1, 6),
           backoff_until = greatest(coalesce(backoff_until, clock_timestamp()), clock_timestamp() + make_interval(secs => p_wait_ms / 1000.0))
     WHERE host = p_host;
  ELSIF p_outcome = 'ok' THEN
    UPDATE politeness_hosts SET backoff_level = backoff_level - 1 WHERE host = p_host AND backoff_level > 0;
  END IF;
END;
$$;

-- robots.txt per host (core/src/politeness/robots.ts), shared by every worker until expires_at.
CREATE TABLE robots_cache (
  -- scheme://host[:port], as robots.txt is per origin.
  origin text PRIMARY KEY,
  -- The HTTP status of /robots.txt (0: unreachable); the body only for 2xx.
  status integer NOT NULL,
  body text NOT NULL DEFAULT '',
  fetched_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);

-- Owner settings an operator sets (gleaner politeness set): a request cannot change these.
CREATE TABLE owner_politeness (
  owner_id text PRIMARY KEY REFERENCES owners(id) ON DELETE CASCADE,
  -- null: the server's setting (robots.respect).
  respect_robots boolean,
  concurrency integer CHECK (concurrency BETWEEN 1 AND 64),
  delay_ms integer CHECK (delay_ms >= 0),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- A URL robots.txt disallows is skipped, with the reason in `error`; the run records its politeness.
ALTER TABLE run_items DROP CONSTRAINT run_items_status_check;
ALTER TABLE run_items ADD CONSTRAINT run_items_status_check CHECK (status IN ('queued', 'running', 'completed', 'failed', 'skipped'));
ALTER TABLE run_items ADD COLUMN polite_wait_ms integer NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN skipped integer NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN polite_wait_ms bigint NOT NULL DEFAULT 0;
ALTER TABLE runs ADD COLUMN backoffs integer NOT NULL DEFAULT 0;
