/**
 * Page acquisition for one operation: plain HTTP first, a browser when the page needs one.
 *
 * Escalation (`browser.escalation`): `auto` starts on the first driver without JavaScript and moves
 * to the browser driver when the page looks like it needs one (see `needsBrowser`) or when the
 * caller reports an empty extraction (`escalate`); `always` uses the browser for every page;
 * `never` stays on plain HTTP. A caller that knows better (a scraper whose sample needed a browser)
 * asks for the browser up front with `preferBrowser`.
 */
import { GleanerError } from '../errors.ts';
import type { Cookie } from '../net/cookies.ts';
import { resolveProxy } from '../net/proxies.ts';
import type { Driver, DriverSession, PageSnapshot } from '../plugins/driver.ts';
import type { OperationContext } from '../context.ts';
import type { LocalStorageState } from '../plugins/driver.ts';
import { needsBrowser } from './needs-browser.ts';
import { fetchPolitely, type PoliteScope } from '../politeness/policy.ts';

export interface BrowseOptions {
  proxyCountry: string | null;
  cookies: Cookie[];
  /** Local storage by origin to start the browser with (a profile's). */
  localStorage?: LocalStorageState;
  signal?: AbortSignal;
  /** Start on the browser driver (e.g. a scraper whose sample page needed one). */
  preferBrowser?: boolean;
  /**
   * Runs, maps and crawls: every navigation obeys robots.txt and waits its turn at the host
   * (politeness/policy.ts); a 429/503 backs off and tries again. Absent: fetched at once.
   */
  polite?: PoliteScope;
}

/** One browsing session for an operation: every page of a paginated extraction shares its cookies. */
export interface Browser {
  /** Fetches a page; in `auto` escalation, a page that needs JavaScript is fetched again with the browser. */
  goto(url: string): Promise<PageSnapshot>;
  /**
   * Fetches `url` again with the browser after the caller found nothing on a plain-HTTP page (an
   * empty extraction). Null when escalation is off, no browser driver is configured, or the last
   * page already came from the browser.
   */
  escalate(url: string, reason: string): Promise<PageSnapshot | null>;
  /** The driver of the last page fetched (null before the first). */
  readonly driver: string | null;
  close(): Promise<void>;
}

function pickDrivers(drivers: readonly Driver[]): { plain: Driver | null; browser: Driver | null } {
  return {
    plain: drivers.find((d) => !d.capabilities.javascript) ?? null,
    browser: drivers.find((d) => d.capabilities.javascript) ?? null,
  };
}

/** Opens a browsing session; sessions are opened lazily, per driver, and closed together. */
export async function openBrowser(ctx: OperationContext, opts: BrowseOptions): Promise<Browser> {
  const { plain, browser } = pickDrivers(ctx.drivers);
  if (!plain && !browser) throw new GleanerError('DRIVER_UNAVAILABLE', 'no page driver is configured');
  const mode = ctx.config.browser.escalation;
  const proxy = resolveProxy(opts.proxyCountry ?? ctx.config.network.defaultProxyCountry, ctx.config, { logger: ctx.logger });
  const sessions = new Map<Driver, Promise<DriverSession>>();
  // Cookies set by the site carry over when a later page moves to the browser.
  let cookies: Cookie[] = opts.cookies;
  let lastDriver: string | null = null;
  let lastWasPlain = false;

  const useBrowserFirst = !plain || (browser !== null && (mode === 'always' || (mode !== 'never' && opts.preferBrowser === true)));
  const canEscalate = mode !== 'never' && browser !== null;

  function session(driver: Driver): Promise<DriverSession> {
    let s = sessions.get(driver);
    if (!s) {
      s = driver.openSession({ proxy, cookies, localStorage: opts.localStorage, signal: opts.signal, logger: ctx.logger });
      // A failed open must not be cached: the next page may try again.
      s.catch(() => sessions.delete(driver));
      sessions.set(driver, s);
    }
    return s;
  }

  async function fetchWith(driver: Driver, url: string): Promise<PageSnapshot> {
    const s = await session(driver);
    const page = opts.polite ? await fetchPolitely(ctx, opts.polite, url, () => s.goto(url), opts.signal) : await s.goto(url);
    if (page.cookies) cookies = page.cookies;
    lastDriver = page.driver;
    lastWasPlain = !driver.capabilities.javascript;
    ctx.logger.debug({ url, finalUrl: page.finalUrl, status: page.status, driver: page.driver, bytes: page.html.length }, 'page fetched');
    if (page.status >= 400) {
      throw new GleanerError('FETCH_FAILED', `${url} answered HTTP ${page.status}`, {
        retryable: page.status >= 500 || page.status === 429,
        details: { status: page.status },
      });
    }
    return page;
  }

  async function viaBrowser(url: string, reason: string): Promise<PageSnapshot> {
    ctx.logger.info({ url, driver: browser!.name, reason }, 'escalating to a browser');
    return fetchWith(browser!, url);
  }

  return {
    get driver() {
      return lastDriver;
    },
    async goto(url) {
      if (useBrowserFirst) return fetchWith(browser ?? plain!, url);
      const page = await fetchWith(plain!, url);
      if (!canEscalate) return page;
      const reason = needsBrowser(page);
      return reason ? viaBrowser(url, reason) : page;
    },
    async escalate(url, reason) {
      if (!canEscalate || !lastWasPlain) return null;
      return viaBrowser(url, reason);
    },
    async close() {
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.allSettled(open.map(async (s) => (await s).close()));
    },
  };
}
