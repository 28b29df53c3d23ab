/**
 * Using a profile, and signing in again when it has expired. A page answered HTTP 401, or a
 * navigation that ended on a sign-in page (a URL whose path says login / sign-in / auth, or a page
 * with a password field) where another page was asked for, means the profile's session is over.
 * A profile saved by an agentic scraper is then refreshed: that scraper's script is replayed
 * without the model (its stored secret parameters typed, a TOTP code computed then), and the
 * browser state it ends with replaces the profile. A profile saved by a one-shot agent task is
 * refreshed the same way from the sign-in kept with it (profiles/sign-in.ts: the task's actions and
 * secret parameters). Imported profiles cannot be refreshed: the caller reports the expiry.
 */
import type { OperationContext } from '../context.ts';
import { isGleanerError } from '../errors.ts';
import type { Cookie } from '../net/cookies.ts';
import type { LocalStorageState } from '../plugins/driver.ts';
import { replayScript, type ReplayInput } from '../agent/replay.ts';
import { validateScript } from '../agent/script.ts';
import { loadScraper } from '../scrapers/store.ts';
import { withScraperLock } from '../scrapers/lock.ts';
import { storedSecrets } from '../scrapers/secret-parameters.ts';
import { secretsFrom } from '../secrets/values.ts';
import { loadProfile, saveProfile, type LoadedProfile, type ProfileSource } from './index.ts';

const SIGN_IN_PATH = /(^|[/_.-])(log[-_]?in|sign[-_]?in|auth|sso|session\/new)([/_.-]|$)/i;

/** Whether a page that was asked for `requested` and ended on `finalUrl` with `html` looks signed out. */
export function looksSignedOut(page: { status?: number; finalUrl?: string; html?: string }, requested: string): boolean {
  if (page.status === 401) return true;
  if (!page.finalUrl) return false;
  let asked: URL;
  let ended: URL;
  try {
    asked = new URL(requested);
    ended = new URL(page.finalUrl);
  } catch {
    return false;
  }
  if (asked.pathname === ended.pathname) return false;
  if (SIGN_IN_PATH.test(ended.pathname) && !SIGN_IN_PATH.test(asked.pathname)) return true;
  return /<input[^>]+type\s*=\s*["']?password/i.test(page.html ?? '');
}

/** An error that says a page answered 401. */
export function isUnauthorized(err: unknown): boolean {
  return isGleanerError(err) && err.code === 'FETCH_FAILED' && (err.details as { status?: number } | undefined)?.status === 401;
}

/**
 * Replays the sign-in that made profile `name` (an agentic scraper's script, or the sign-in an agent
 * task kept with it) and saves the state it ends with. Returns the fresh profile, or null when it
 * cannot be refreshed (imported, the scraper is gone, or the replay drifted). One refresh at a time
 * per scraper (its build lock) or per agent-task profile: a caller that waited finds the profile
 * saved since `seen` and takes it as is, so the items of a run that all find it expired sign in once.
 */
export async function refreshProfile(
  ctx: OperationContext,
  ownerId: string,
  name: string,
  seen: LoadedProfile,
  signal?: AbortSignal,
): Promise<LoadedProfile | null> {
  const lock = seen.source === 'agent_task' && seen.signIn ? `profile:${ownerId}:${name}` : seen.source === 'agentic_scraper' ? seen.scraperId : null;
  if (!lock) return null;
  return withScraperLock(
    ctx.db,
    lock,
    async () => {
      const profile = await loadProfile(ctx, ownerId, name);
      if (profile.updatedAt !== seen.updatedAt) return profile; // refreshed meanwhile
      const how = await signInOf(ctx, ownerId, profile);
      if (!how) return null;
      const started = Date.now();
      const replay = await replayScript(ctx, { ...how.replay, signal, keepState: true });
      const log = { profile: name, ...(how.from.scraperId ? { scraperId: how.from.scraperId } : {}) };
      if (replay.drift || !replay.cookies?.length) {
        ctx.logger.warn({ ...log, drift: replay.drift?.message }, 'profile: replaying its sign-in failed');
        return null;
      }
      const state = { cookies: replay.cookies, localStorage: replay.localStorage ?? profile.localStorage, signIn: profile.signIn };
      await saveProfile(ctx, ctx.db, ownerId, name, state, how.from);
      ctx.logger.info({ ...log, ms: Date.now() - started }, 'profile refreshed: its sign-in was replayed');
      return { ...profile, ...state };
    },
    { signal },
  );
}

/** How `profile` signs in again without the model (what its replay runs, how it is saved); null when it cannot. */
async function signInOf(
  ctx: OperationContext,
  ownerId: string,
  profile: LoadedProfile,
): Promise<{ replay: Pick<ReplayInput, 'script' | 'url' | 'parameters' | 'attributes'>; from: { source: ProfileSource; scraperId?: string } } | null> {
  if (profile.source === 'agent_task' && profile.signIn) {
    const kept = profile.signIn;
    return {
      replay: { script: validateScript(kept.script, { signIn: true }), url: kept.url, parameters: secretsFrom(kept.secrets), attributes: [] },
      from: { source: 'agent_task' },
    };
  }
  if (profile.source !== 'agentic_scraper' || !profile.scraperId) return null;
  const scraper = await loadScraper(ctx.db, ownerId, profile.scraperId);
  if (!scraper?.script || !scraper.url) return null;
  const script = validateScript(scraper.script);
  const defaults = Object.fromEntries((scraper.parametersSchema ?? []).filter((p) => p.default !== undefined).map((p) => [p.name, p.default]));
  return {
    replay: {
      script,
      url: scraper.url,
      parameters: { ...script.parameters, ...defaults, ...storedSecrets(ctx, scraper.request) },
      attributes: scraper.attributes,
    },
    from: { source: 'agentic_scraper', scraperId: scraper.id },
  };
}

/**
 * Runs `fn` with the profile's cookies (or `base` alone without a profile); when its outcome looks
 * signed out (`signedOut`, or a 401 thrown), refreshes the profile once and runs `fn` again.
 */
export async function withProfile<T>(
  ctx: OperationContext,
  ownerId: string,
  name: string | null | undefined,
  base: readonly Cookie[],
  fn: (cookies: Cookie[], localStorage: LocalStorageState) => Promise<T>,
  signedOut: (result: T) => boolean,
  signal?: AbortSignal,
): Promise<T> {
  if (!name) return fn([...base], {});
  const profile = await loadProfile(ctx, ownerId, name);
  const merge = (p: LoadedProfile) => [...p.cookies, ...base];
  let first: { ok: true; value: T } | { ok: false; err: unknown };
  try {
    first = { ok: true, value: await fn(merge(profile), profile.localStorage) };
  } catch (err) {
    if (!isUnauthorized(err)) throw err;
    first = { ok: false, err };
  }
  if (first.ok && !signedOut(first.value)) return first.value;
  const fresh = await refreshProfile(ctx, ownerId, name, profile, signal);
  if (!fresh) {
    if (first.ok) return first.value;
    throw first.err;
  }
  return fn(merge(fresh), fresh.localStorage);
}

/** An extraction with the profile's cookies added to its own, refreshed once when its first page looks signed out. */
export function extractSignedIn<T extends { pages: Array<{ url: string }> }, O extends { cookies: Cookie[]; localStorage?: LocalStorageState }>(
  ctx: OperationContext,
  ownerId: string,
  profile: string | null | undefined,
  url: string,
  options: O,
  run: (options: O) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  if (!profile) return run(options);
  return withProfile(
    ctx,
    ownerId,
    profile,
    options.cookies,
    (cookies, localStorage) => run({ ...options, cookies, localStorage }),
    (r) => looksSignedOut({ finalUrl: r.pages[0]?.url }, url),
    signal,
  );
}
