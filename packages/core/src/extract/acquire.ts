import { GleanerError } from '../errors.ts';
import type { Cookie } from '../net/cookies.ts';
import { resolveProxy } from '../net/proxies.ts';
import type { DriverSession, PageSnapshot } from '../plugins/driver.ts';
import type { OperationContext } from './context.ts';

export interface BrowseOptions {
  proxyCountry: string | null;
  cookies: Cookie[];
  signal?: AbortSignal;
}

/** One browsing session for an operation: every page of a paginated extraction shares its cookies. */
export interface Browser {
  goto(url: string): Promise<PageSnapshot>;
  close(): Promise<void>;
}

/** Opens a session on the first driver (plain HTTP); browser escalation plugs in here. */
export async function openBrowser(ctx: OperationContext, opts: BrowseOptions): Promise<Browser> {
  const driver = ctx.drivers[0];
  if (!driver) throw new GleanerError('DRIVER_UNAVAILABLE', 'no page driver is configured');
  const proxy = resolveProxy(opts.proxyCountry ?? ctx.config.network.defaultProxyCountry, ctx.config, { logger: ctx.logger });
  const session: DriverSession = await driver.openSession({ proxy, cookies: opts.cookies, signal: opts.signal, logger: ctx.logger });
  return {
    async goto(url) {
      const page = await session.goto(url);
      ctx.logger.debug({ url, finalUrl: page.finalUrl, status: page.status, driver: page.driver, bytes: page.html.length }, 'page fetched');
      if (page.status >= 400) {
        throw new GleanerError('FETCH_FAILED', `${url} answered HTTP ${page.status}`, { retryable: page.status >= 500 || page.status === 429, details: { status: page.status } });
      }
      return page;
    },
    close: () => session.close(),
  };
}
