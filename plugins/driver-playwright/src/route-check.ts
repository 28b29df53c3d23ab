// The second SSRF layer behind the filtering proxy: request URLs with a literal address are checked
// in the browser's own request pipeline (a context route), so even a request that somehow went around
// the proxy could not reach a blocked address. Host names are left to the proxy, which resolves and
// checks them. Playwright matches the route's regular expression in its server, so only URLs the
// expression matches cost a round trip to our handler; the expression is kept to literal addresses
// that can be non-public, minus whole /8 blocks the operator allowed (they would pass anyway).
import type { BrowserContext, Route } from 'playwright-core';
import { isGleanerError, parseAllowNetworks } from '@gleaner/core';
import type { BlockedRequest, SsrfGuard } from '@gleaner/core';

/** First octets under which ipaddr.js has a non-unicast range (0/8, 10/8, 100.64/10, 127/8, 169.254/16, ...). */
const SPECIAL_FIRST_OCTETS = [0, 10, 100, 127, 169, 172, 192, 198, 203, ...Array.from({ length: 32 }, (_, i) => 224 + i)];

function coveredBy(allowed: ReturnType<typeof parseAllowNetworks>, cidr: string): boolean {
  const [[net, bits]] = parseAllowNetworks([cidr]);
  return allowed.some(([n, b]) => n.kind() === net.kind() && b <= bits && net.match(n, b));
}

/**
 * The URL pattern of the route check, or null when nothing is left to check. `allowNetworks`
 * undefined (a shared guard of unknown configuration) keeps every alternative.
 */
export function routeCheckPattern(allowNetworks?: readonly string[]): RegExp | null {
  const allowed = allowNetworks ? parseAllowNetworks(allowNetworks) : [];
  const octets = SPECIAL_FIRST_OCTETS.filter((o) => !coveredBy(allowed, `${o}.0.0.0/8`));
  const hosts: string[] = [];
  if (!coveredBy(allowed, '::/0')) hosts.push('\\[[0-9a-fA-F:.]+\\]');
  // WHATWG URLs write every IPv4 form (127.1, 0x7f.1, 2130706433) as dotted decimal.
  if (octets.length) hosts.push(`(?:${octets.join('|')})(?:\\.\\d{1,3}){3}`);
  if (!hosts.length) return null;
  return new RegExp(`^(?:https?|wss?)://(?:[^/?#@]*@)?(?:${hosts.join('|')})(?::\\d+)?(?:[/?#]|$)`);
}

/** Installs the route check on a context; refused requests are aborted and recorded in `refused`. */
export async function installRouteCheck(context: BrowserContext, pattern: RegExp, guard: SsrfGuard, refused: BlockedRequest[]): Promise<void> {
  await context.route(pattern, async (route: Route) => {
    const url = route.request().url();
    try {
      guard.checkUrl(url.replace(/^ws/, 'http'));
    } catch (err) {
      if (isGleanerError(err) && err.code === 'URL_BLOCKED') {
        refused.push({ url, reason: err.message, at: Date.now() });
        if (refused.length > 1000) refused.splice(0, refused.length - 1000);
        await route.abort('blockedbyclient').catch(() => undefined);
        return;
      }
    }
    await route.fallback().catch(() => undefined);
  });
}
