/**
 * One run item of an agentic scraper: its script replayed on the run's URL with the run's
 * parameters, no model call. Layout drift (a step's target gone, an extract empty where the build's
 * page had records, or most records missing fields the sample filled) fails the item with
 * `layout changed: <step>` and flags the scraper; with scrapers.selfHeal the agent records the
 * script again from the step that drifted (agentic-heal.ts) and the item is replayed once on the
 * new version. A paginate step follows its "next" control up to the run's max_pages.
 */
import { replayScript, type ReplayResult } from '../agent/replay.ts';
import { validateScript, type AgentScript } from '../agent/script.ts';
import { GleanerError, toGleanerError } from '../errors.ts';
import type { OperationContext } from '../context.ts';
import type { JobContext } from '../jobs/job-kind.ts';
import { healAgenticScraper } from '../scrapers/agentic-heal.ts';
import { markDrift, type ScraperRecord } from '../scrapers/index.ts';
import { detectDrift } from './drift.ts';
import { completedOutcome, trustFor, type ClaimedItem, type ItemOutcome } from './items.ts';
import type { Cookie } from '../net/cookies.ts';
import type { LocalStorageState } from '../plugins/driver.ts';
import { storedSecrets } from '../scrapers/secret-parameters.ts';
import { secretsFrom, type SecretInput } from '../secrets/values.ts';
import { unseal } from '../secrets/vault.ts';
import { looksSignedOut, withProfile } from '../profiles/refresh.ts';

/** What a replay of the item runs with: its parameters (secrets as SecretValues) and the profile's cookies. */
interface ItemInputs {
  parameters: Record<string, unknown> | null;
  cookies: Cookie[];
  localStorage?: LocalStorageState;
}
import { withProvenance, type TrustLog } from '../trust/provenance.ts';

function replay(
  c: OperationContext,
  scraper: ScraperRecord,
  script: AgentScript,
  item: ClaimedItem,
  signal: AbortSignal,
  inputs: ItemInputs,
  deferClose?: (closing: Promise<void>) => void,
  trust?: TrustLog,
): Promise<ReplayResult> {
  return replayScript(
    c,
    {
      script,
      url: new URL(item.url).href,
      parameters: inputs.parameters,
      attributes: scraper.attributes,
      signal,
      maxPages: item.options.maxPages,
      cookies: inputs.cookies,
      localStorage: inputs.localStorage,
      trust,
    },
    deferClose,
  );
}

/** The scraper's stored secrets, then the run's own (sealed in its options), over the run's parameters. */
function itemParameters(c: OperationContext, scraper: ScraperRecord, item: ClaimedItem): Record<string, unknown> | null {
  const stored = storedSecrets(c, scraper.request);
  const own = item.options.secrets ? secretsFrom(unseal<SecretInput[]>(c.config, item.options.secrets, 'secret parameters')) : {};
  if (!Object.keys(stored).length && !Object.keys(own).length) return item.options.parameters;
  return { ...item.options.parameters, ...stored, ...own };
}

/** The replay's drift, or records that miss the sample's fields (an empty result is judged by the replay's extract steps). */
function driftOf(result: ReplayResult, scraper: ScraperRecord, url: string): string | null {
  if (result.drift) return result.drift.message;
  return result.records.length ? detectDrift(result.records, scraper.sampleData, scraper.attributes, result.pages[0]?.url ?? url) : null;
}

function layoutChanged(
  message: string,
  d: { driver: string; recipeVersion: number | null; healed?: boolean; modelCalls?: number; healCredits?: number },
): GleanerError {
  return new GleanerError('LAYOUT_CHANGED', message, { details: d });
}

/**
 * `deferClose` receives the closing of each replay's browser session instead of it being awaited
 * here: the caller records the outcome meanwhile, then awaits them.
 */
export async function executeAgenticItem(
  c: OperationContext,
  scraper: ScraperRecord,
  item: ClaimedItem,
  job: Pick<JobContext, 'signal' | 'lastAttempt' | 'logger'>,
  deferClose?: (closing: Promise<void>) => void,
): Promise<ItemOutcome> {
  let script = validateScript(scraper.script);
  let version = scraper.recipeVersion;
  let trust = trustFor(item);
  const inputs: ItemInputs = { parameters: itemParameters(c, scraper, item), cookies: [] };
  // With a profile: its cookies; a replay that finds the site signed out refreshes it (its sign-in replayed) once.
  let result = await withProfile(
    c,
    scraper.ownerId,
    // A scraper built on a profile runs on it unless the run names another.
    item.options.profile ?? scraper.request?.profile,
    [],
    (cookies, localStorage) => {
      inputs.cookies = cookies;
      inputs.localStorage = localStorage;
      trust = trustFor(item);
      return replay(c, scraper, script, item, job.signal, inputs, deferClose, trust);
    },
    (r) => r.drift !== null && looksSignedOut({ finalUrl: r.drift.page.url, html: r.drift.page.html }, item.url),
    job.signal,
  );
  const drift = driftOf(result, scraper, item.url);
  let healed = false;
  let modelCalls = 0;
  let healCredits = 0;
  if (drift) {
    const regenerate = `Rebuild the scraper (POST /v1/agent/generate with template_id ${scraper.id})`;
    if (!c.config.scrapers.selfHeal) {
      await markDrift(c.db, scraper.id, drift);
      throw layoutChanged(`${drift}. ${regenerate}, or turn on scrapers.selfHeal.`, { driver: result.driver, recipeVersion: version });
    }
    job.logger.info({ scraperId: scraper.id, version, reason: drift }, 'layout drift: the agent records the agentic scraper again');
    let heal: Awaited<ReturnType<typeof healAgenticScraper>>;
    try {
      heal = await healAgenticScraper(
        c,
        scraper,
        { url: item.url, parameters: inputs.parameters, fromStep: result.drift?.step ?? null, cookies: inputs.cookies },
        drift,
        job.signal,
      );
    } catch (err) {
      const e = toGleanerError(err);
      if ((e.retryable && !job.lastAttempt) || e.code === 'JOB_ABORTED') throw e;
      await markDrift(c.db, scraper.id, drift);
      throw layoutChanged(`${drift}; recording the script again failed: ${e.message}`, { driver: result.driver, recipeVersion: version });
    }
    if (!heal.healed) {
      await markDrift(c.db, scraper.id, drift);
      throw layoutChanged(`${drift}; recording the script again failed: ${heal.reason}. ${regenerate}.`, {
        driver: result.driver,
        recipeVersion: version,
        healCredits: heal.credits ?? 0,
      });
    }
    ({ script, version, modelCalls, credits: healCredits } = heal);
    healed = true;
    trust = trustFor(item);
    result = await replay(c, scraper, script, item, job.signal, inputs, deferClose, trust);
    if (result.drift) {
      await markDrift(c.db, scraper.id, result.drift.message);
      throw layoutChanged(`${result.drift.message} (even with the re-recorded version ${version})`, {
        driver: result.driver,
        recipeVersion: version,
        healed,
        modelCalls,
        healCredits,
      });
    }
  }
  const outcome = completedOutcome(
    c.config,
    { records: trust ? withProvenance(result.records, trust) : result.records, driver: result.driver, pages: Math.max(1, result.pages.length) },
    { version, healed, modelCalls, healCredits },
  );
  // The pages the script's extract steps read, for the snapshot archive (the run's `snapshots`).
  const documents = result.pages.flatMap((p) =>
    p.html === undefined ? [] : [{ url: p.url, driver: p.driver ?? result.driver, html: p.html, body: p.body, charset: p.charset }],
  );
  return { ...outcome, documents };
}
