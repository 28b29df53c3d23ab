/**
 * robots.txt (RFC 9309): parsed into the group for our product token (else `*`), longest match
 * wins and `allow` wins a tie, `*` and `$` in paths; `Crawl-delay` and `Sitemap` lines as well
 * (not in the RFC, widely used). Cached per origin in Postgres (`robots_cache`) for
 * robots.ttlSeconds, so every worker reads one copy; each process also keeps what it read.
 *
 * Unavailable robots.txt (4xx) means no rules; unreachable (5xx, network errors) means "disallow
 * everything" as the RFC asks, but cached for a minute only, so a site's hiccup is short-lived.
 */
import { GleanerError } from '../errors.ts';
import type { OperationContext } from '../context.ts';
import { createSsrfGuard } from '../net/ssrf.ts';
import { fetchRaw } from './fetch.ts';
import type { HostLimits } from './gate.ts';

interface Rule {
  allow: boolean;
  path: string;
  re: RegExp;
}

export interface RobotsRules {
  /** The status /robots.txt answered (0: unreachable). */
  status: number;
  rules: Rule[];
  /** Everything is disallowed (robots.txt unreachable). */
  disallowAll: boolean;
  crawlDelayMs: number | null;
  sitemaps: string[];
}

function pathPattern(path: string): RegExp {
  const anchored = path.endsWith('$');
  const body = (anchored ? path.slice(0, -1) : path)
    .split('*')
    .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}${anchored ? '$' : ''}`);
}

/** Percent-encoding normalised the way both sides compare (RFC 9309 2.2.2). */
function normalisePath(p: string): string {
  try {
    return encodeURI(decodeURI(p));
  } catch {
    return p;
  }
}

export function parseRobots(text: string, userAgent: string, status = 200): RobotsRules {
  const token = userAgent.toLowerCase();
  const groups: Array<{ agents: string[]; lines: Array<[string, string]> }> = [];
  const sitemaps: string[] = [];
  let current: { agents: string[]; lines: Array<[string, string]> } | null = null;
  let lastWasAgent = false;
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const line = raw.replace(/#.*$/, '').trim();
    const m = /^([A-Za-z-]+)\s*:\s*(.*)$/.exec(line);
    if (!m) continue;
    const key = m[1].toLowerCase();
    const value = m[2].trim();
    if (key === 'sitemap') {
      if (value) sitemaps.push(value);
      continue;
    }
    if (key === 'user-agent') {
      if (!lastWasAgent || !current) groups.push((current = { agents: [], lines: [] }));
      current.agents.push(value.toLowerCase());
      lastWasAgent = true;
      continue;
    }
    lastWasAgent = false;
    if (current) current.lines.push([key, value]);
  }
  const mine = groups.filter((g) => g.agents.some((a) => a !== '*' && token.startsWith(a)));
  const chosen = mine.length ? mine : groups.filter((g) => g.agents.includes('*'));
  const rules: Rule[] = [];
  let crawlDelayMs: number | null = null;
  for (const g of chosen) {
    for (const [key, value] of g.lines) {
      if ((key === 'allow' || key === 'disallow') && value) {
        const path = normalisePath(value);
        rules.push({ allow: key === 'allow', path, re: pathPattern(path) });
      } else if (key === 'crawl-delay') {
        const s = Number(value);
        if (Number.isFinite(s) && s >= 0) crawlDelayMs = Math.min(Math.round(s * 1000), 600_000);
      }
    }
  }
  return { status, rules, disallowAll: false, crawlDelayMs, sitemaps };
}

/** Whether the rules let `url` be fetched; the matching rule when they do not. */
export function robotsVerdict(robots: RobotsRules, url: string): { allowed: boolean; rule?: string } {
  const u = new URL(url);
  if (u.pathname === '/robots.txt') return { allowed: true };
  if (robots.disallowAll) return { allowed: false, rule: `robots.txt unreachable (HTTP ${robots.status || 'error'}): everything is disallowed for now` };
  const target = normalisePath(`${u.pathname}${u.search}`);
  let best: Rule | null = null;
  for (const r of robots.rules) {
    if (!r.re.test(target)) continue;
    if (!best || r.path.length > best.path.length || (r.path.length === best.path.length && r.allow && !best.allow)) best = r;
  }
  return best && !best.allow ? { allowed: false, rule: `Disallow: ${best.path}` } : { allowed: true };
}

const UNREACHABLE_TTL_SECONDS = 60;
const MAX_ROBOTS_BYTES = 512 * 1024;

/** robots.txt per origin for one process: Postgres first, the site when the cached copy expired. */
export class RobotsCache {
  readonly #mem = new Map<string, { rules: RobotsRules; until: number }>();
  readonly #loading = new Map<string, Promise<RobotsRules>>();
  readonly #ctx: () => OperationContext;
  constructor(ctx: () => OperationContext) {
    this.#ctx = ctx;
  }

  /**
   * The rules for `url`'s origin. With `limits`, a fetch of robots.txt takes a turn at the host like
   * any page (the site's concurrency and delay count it), and reads the cache again once it has its
   * turn: another worker may have fetched the file meanwhile.
   */
  async rules(url: string, signal?: AbortSignal, limits?: HostLimits): Promise<RobotsRules> {
    const origin = new URL(url).origin;
    const hit = this.#mem.get(origin);
    if (hit && hit.until > Date.now()) return hit.rules;
    let p = this.#loading.get(origin);
    if (!p) {
      p = this.#load(origin, signal, limits).finally(() => this.#loading.delete(origin));
      this.#loading.set(origin, p);
    }
    return p;
  }

  async #load(origin: string, signal?: AbortSignal, limits?: HostLimits): Promise<RobotsRules> {
    const c = this.#ctx();
    const cached = () =>
      c.db
        .query<{ status: number; body: string; ms: number }>(
          `SELECT status, body, (extract(epoch FROM expires_at - now()) * 1000)::int AS ms FROM robots_cache WHERE origin = $1 AND expires_at > now()`,
          [origin],
        )
        .then((r) => r.rows[0]);
    const row = await cached();
    if (row) return this.#remember(origin, row.status, row.body, row.ms);
    const gate = limits && c.politeness?.gate;
    if (!gate) return this.#fetch(origin, signal);
    const lease = await gate.acquire(new URL(origin).host, limits, signal);
    try {
      const again = await cached();
      return again ? this.#remember(origin, again.status, again.body, again.ms) : await this.#fetch(origin, signal);
    } finally {
      await lease.release({ kind: 'none' });
    }
  }

  /** Fetches robots.txt, stores it in Postgres for every worker, and keeps its rules. */
  async #fetch(origin: string, signal?: AbortSignal): Promise<RobotsRules> {
    const c = this.#ctx();
    let status: number;
    let body = '';
    try {
      const res = await fetchRaw(`${origin}/robots.txt`, {
        guard: createSsrfGuard({ allowNetworks: c.config.network.allowNetworks }),
        userAgent: c.config.fetch.userAgent,
        timeoutMs: c.config.fetch.timeoutMs,
        maxBytes: MAX_ROBOTS_BYTES,
        signal,
      });
      status = res.status;
      body = status >= 200 && status < 300 ? res.body.toString('utf8') : '';
    } catch (err) {
      if (err instanceof GleanerError && (err.code === 'URL_BLOCKED' || err.code === 'URL_INVALID')) throw err;
      c.logger.warn({ origin, err: (err as Error).message }, 'robots.txt unreachable: disallowing the origin for a minute');
      status = 0;
    }
    const unreachable = status === 0 || status >= 500;
    const ttlMs = (unreachable ? Math.min(UNREACHABLE_TTL_SECONDS, c.config.robots.ttlSeconds) : c.config.robots.ttlSeconds) * 1000;
    await c.db.query(
      `INSERT INTO robots_cache (origin, status, body, fetched_at, expires_at) VALUES ($1, $2, $3, now(), now() + make_interval(secs => $4 / 1000.0))
       ON CONFLICT (origin) DO UPDATE SET status = EXCLUDED.status, body = EXCLUDED.body, fetched_at = now(), expires_at = EXCLUDED.expires_at`,
      [origin, status, body, ttlMs],
    );
    c.logger.info({ origin, status }, 'robots.txt fetched');
    return this.#remember(origin, status, body, ttlMs);
  }

  #remember(origin: string, status: number, body: string, ttlMs: number): RobotsRules {
    const ua = this.#ctx().config.robots.userAgent;
    const rules =
      status >= 200 && status < 300
        ? parseRobots(body, ua, status)
        : { status, rules: [], disallowAll: status === 0 || status >= 500, crawlDelayMs: null, sitemaps: [] };
    this.#mem.set(origin, { rules, until: Date.now() + Math.min(ttlMs, 60_000) });
    if (this.#mem.size > 10_000) this.#mem.delete(this.#mem.keys().next().value!);
    return rules;
  }
}
