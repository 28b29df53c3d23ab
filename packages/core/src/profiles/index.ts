/**
 * Browser profiles (a Gleaner extension): a named, per-owner browser state — cookies and local
 * storage — stored sealed with auth.secretsKey (secrets/vault.ts). Created by importing cookies
 * (POST /v1/profiles), or saved by an agent task or an agentic scraper given `save_profile` once it
 * has run; used as `profile: "name"` by extract, runs, agent tasks and agentic scrapers, whose page
 * sessions start with its cookies. Listing shows names, domains and times, never a value. A
 * profile saved by an agentic scraper remembers it: when a page answers as signed out (HTTP 401,
 * or a redirect to a sign-in page), `refreshProfile` replays that scraper's sign-in without the
 * model and saves the fresh state. A profile saved by an agent task keeps the task's sign-in
 * (profiles/sign-in.ts), sealed with its state, and is refreshed from it the same way.
 */
import { randomUUID } from 'node:crypto';
import { GleanerError, validationFailed, type ValidationIssue } from '../errors.ts';
import type { OperationContext } from '../context.ts';
import type { Queryable } from '../store/db.ts';
import type { Cookie } from '../net/cookies.ts';
import { normalizeCookieInput } from '../schemas/normalize.ts';
import { checkRequest } from '../schemas/validate.ts';
import { PROFILE_CREATE_BODY } from '../schemas/secrets.ts';
import { seal, secretsKey, unseal } from '../secrets/vault.ts';
import type { Owner } from '../auth/owners.ts';
import type { ProfileSignIn } from './sign-in.ts';

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

export type ProfileSource = 'import' | 'agent_task' | 'agentic_scraper';

export interface ProfileState {
  cookies: Cookie[];
  /** Local storage by origin. */
  localStorage: Record<string, Record<string, string>>;
  /** A one-shot agent task's sign-in, to replay when the session is over (profiles/sign-in.ts). */
  signIn?: ProfileSignIn | null;
}

export interface LoadedProfile extends ProfileState {
  name: string;
  source: ProfileSource;
  scraperId: string | null;
  /** When it was last saved (a refresh that finds it newer reuses it). */
  updatedAt: string;
}

export interface ProfileSummary {
  name: string;
  domains: string[];
  cookies: number;
  source: ProfileSource;
  scraper_id: string | null;
  created_at: string;
  updated_at: string;
}

/** A `profile` / `save_profile` request field: the name, null when absent; problems go to issues. */
export function profileField(value: unknown, loc: Array<string | number>, issues: ValidationIssue[]): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string' || !NAME.test(value)) {
    issues.push({ loc, msg: 'a profile name is letters, digits, _, . or - (starting with a letter or digit, at most 100)', type: 'string_pattern_mismatch' });
    return null;
  }
  return value;
}

const domainsOf = (cookies: readonly Cookie[]) => [...new Set(cookies.map((c) => c.domain).filter((d): d is string => Boolean(d)))].sort();

/** Creates or replaces the owner's profile `name`. */
export async function saveProfile(
  ctx: Pick<OperationContext, 'config' | 'db'>,
  db: Queryable,
  ownerId: string,
  name: string,
  state: ProfileState,
  from: { source: ProfileSource; scraperId?: string | null },
): Promise<void> {
  const sealed = seal(ctx.config, { cookies: state.cookies, localStorage: state.localStorage, ...(state.signIn ? { signIn: state.signIn } : {}) }, 'profiles');
  await db.query(
    `INSERT INTO profiles (id, owner_id, name, state, domains, cookie_count, source, scraper_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (owner_id, name) DO UPDATE SET state = EXCLUDED.state, domains = EXCLUDED.domains, cookie_count = EXCLUDED.cookie_count,
       source = EXCLUDED.source, scraper_id = EXCLUDED.scraper_id, updated_at = now()`,
    [randomUUID(), ownerId, name, sealed, domainsOf(state.cookies), state.cookies.length, from.source, from.scraperId ?? null],
  );
}

/** The owner's profile `name`, decrypted; 404 naming it when there is none. */
export async function loadProfile(ctx: Pick<OperationContext, 'config' | 'db'>, ownerId: string, name: string): Promise<LoadedProfile> {
  const { rows } = await ctx.db.query<{ name: string; state: string; source: ProfileSource; scraper_id: string | null; updated_at: string }>(
    'SELECT name, state, source, scraper_id, updated_at::text FROM profiles WHERE owner_id = $1 AND name = $2',
    [ownerId, name],
  );
  if (!rows[0]) throw new GleanerError('NOT_FOUND', `there is no profile "${name}" (GET /v1/profiles lists yours; POST /v1/profiles imports one)`);
  const state = unseal<ProfileState>(ctx.config, rows[0].state, 'profiles');
  return {
    name,
    cookies: state.cookies ?? [],
    localStorage: state.localStorage ?? {},
    signIn: state.signIn ?? null,
    source: rows[0].source,
    scraperId: rows[0].scraper_id,
    updatedAt: rows[0].updated_at,
  };
}

/** Refuses now (404, or 503 without a key) a `profile` a request names, before anything is queued. */
export async function checkProfile(ctx: Pick<OperationContext, 'config' | 'db'>, ownerId: string, name: string | null | undefined): Promise<void> {
  if (!name) return;
  secretsKey(ctx.config, 'profiles');
  const { rows } = await ctx.db.query('SELECT 1 FROM profiles WHERE owner_id = $1 AND name = $2', [ownerId, name]);
  if (!rows[0]) throw new GleanerError('NOT_FOUND', `there is no profile "${name}" (GET /v1/profiles lists yours; POST /v1/profiles imports one)`);
}

export async function listProfiles(db: Queryable, ownerId: string): Promise<ProfileSummary[]> {
  const { rows } = await db.query<{
    name: string;
    domains: string[];
    cookie_count: number;
    source: ProfileSource;
    scraper_id: string | null;
    created_at: Date;
    updated_at: Date;
  }>('SELECT name, domains, cookie_count, source, scraper_id, created_at, updated_at FROM profiles WHERE owner_id = $1 ORDER BY name', [ownerId]);
  return rows.map((r) => ({
    name: r.name,
    domains: r.domains,
    cookies: r.cookie_count,
    source: r.source,
    scraper_id: r.scraper_id,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  }));
}

export interface ProfileOperations {
  create(owner: Owner, body: unknown): Promise<ProfileSummary>;
  list(owner: Owner): Promise<{ profiles: ProfileSummary[] }>;
  delete(owner: Owner, name: string): Promise<{ name: string; deleted: true }>;
}

export function profileOperations(ctx: OperationContext): ProfileOperations {
  return {
    async create(owner, input) {
      const body = checkRequest<{ name: string; cookies: unknown; local_storage?: Record<string, Record<string, string>> | null }>(PROFILE_CREATE_BODY, input);
      const issues: ValidationIssue[] = [];
      const name = profileField(body.name, ['body', 'name'], issues);
      const cookies = normalizeCookieInput(body.cookies, null, issues);
      cookies.forEach((c, i) => {
        if (!c.domain)
          issues.push({ loc: ['body', 'cookies', i], msg: 'a profile cookie needs its domain (or url): the site it signs in to', type: 'missing' });
      });
      if (!cookies.length && !issues.length) issues.push({ loc: ['body', 'cookies'], msg: 'a profile needs at least one cookie', type: 'too_short' });
      if (issues.length || !name) throw validationFailed(issues);
      await saveProfile(ctx, ctx.db, owner.id, name, { cookies, localStorage: body.local_storage ?? {} }, { source: 'import' });
      ctx.logger.info({ owner: owner.name, profile: name, cookies: cookies.length }, 'profile imported');
      return (await listProfiles(ctx.db, owner.id)).find((p) => p.name === name)!;
    },
    async list(owner) {
      return { profiles: await listProfiles(ctx.db, owner.id) };
    },
    async delete(owner, name) {
      const { rowCount } = await ctx.db.query('DELETE FROM profiles WHERE owner_id = $1 AND name = $2', [owner.id, name]);
      if (!rowCount) throw new GleanerError('NOT_FOUND', `there is no profile "${name}"`);
      ctx.logger.info({ owner: owner.name, profile: name }, 'profile deleted');
      return { name, deleted: true as const };
    },
  };
}
