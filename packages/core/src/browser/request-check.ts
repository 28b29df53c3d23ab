// The second SSRF layer of the browser drivers, behind the filtering proxy: request URLs whose host is
// a literal address that can be non-public are checked inside the browser's own request pipeline
// (DevTools `Fetch` interception), so even a request that somehow went around the proxy could not
// reach a blocked address. Host names are left to the proxy, which resolves and checks them.
//
// Interception is narrowed in the browser itself: `Fetch.enable` takes URL wildcard patterns, and
// Chromium pauses only the requests that match them. Requests for names (nearly all of them) are
// never paused, so the layer costs nothing on ordinary pages. The patterns over-match on purpose
// (`*://10.*` also matches `http://10.example/`); the handler runs the guard on what they catch.
import { isGleanerError } from '../errors.ts';
import { parseAllowNetworks } from '../net/ssrf.ts';
import type { SsrfGuard } from '../net/ssrf.ts';
import type { BlockedRequest } from '../net/filter-proxy.ts';

/** First octets under which ipaddr.js has a non-unicast range (0/8, 10/8, 100.64/10, 127/8, 169.254/16, ...). */
const SPECIAL_FIRST_OCTETS = [0, 10, 100, 127, 169, 172, 192, 198, 203, ...Array.from({ length: 32 }, (_, i) => 224 + i)];

/** Which literal hosts the check must see: IPv4 first octets, and whether IPv6 literals. */
export interface LiteralAddressScope {
  ipv4FirstOctets: number[];
  /**
   * Every IPv6 literal; when false, IPv4-mapped ones (`[::ffff:7f00:1]`) still while any IPv4 range is
   * in scope: the guard judges them as the IPv4 address inside, even with all of IPv6 allowed.
   */
  ipv6: boolean;
}

/** IPv4-mapped IPv6 literals only (all of IPv6 allowed, some IPv4 range not). */
const mappedOnly = (scope: LiteralAddressScope): boolean => !scope.ipv6 && scope.ipv4FirstOctets.length > 0;

function coveredBy(allowed: ReturnType<typeof parseAllowNetworks>, cidr: string): boolean {
  const [[net, bits]] = parseAllowNetworks([cidr]);
  return allowed.some(([n, b]) => n.kind() === net.kind() && b <= bits && net.match(n, b));
}

/**
 * The literal hosts left to check once the operator's allowed networks are taken out (whole /8
 * blocks and all of IPv6 only: anything narrower is still checked, and passes), or null when
 * nothing is left. `allowNetworks` undefined (a guard of unknown configuration) keeps everything.
 */
export function literalAddressScope(allowNetworks?: readonly string[]): LiteralAddressScope | null {
  const allowed = allowNetworks ? parseAllowNetworks(allowNetworks) : [];
  const ipv4FirstOctets = SPECIAL_FIRST_OCTETS.filter((o) => !coveredBy(allowed, `${o}.0.0.0/8`));
  const ipv6 = !coveredBy(allowed, '::/0');
  return ipv4FirstOctets.length || ipv6 ? { ipv4FirstOctets, ipv6 } : null;
}

/**
 * DevTools `Fetch.enable` URL patterns (`*` any run of characters) matching every URL whose host is
 * in `scope`, right after the scheme or after user info. WHATWG URLs write every IPv4 form (`127.1`,
 * `0x7f.1`, `2130706433`) as dotted decimal and IPv6 in brackets, so these forms are all there is.
 */
export function literalAddressUrlPatterns(scope: LiteralAddressScope): string[] {
  const hosts = [...scope.ipv4FirstOctets.map((o) => `${o}.`), ...(scope.ipv6 ? ['['] : mappedOnly(scope) ? ['[::ffff:'] : [])];
  return hosts.flatMap((h) => [`*://${h}*`, `*@${h}*`]);
}

/**
 * The same scope as one regular expression over a URL (for Playwright's `context.route`). Neither form
 * sees WebSockets (DevTools interception and routes do not pause them): those rely on the proxy alone.
 */
export function literalAddressRegExp(scope: LiteralAddressScope): RegExp {
  const hosts: string[] = [];
  if (scope.ipv6) hosts.push('\\[[0-9a-fA-F:.]+\\]');
  else if (mappedOnly(scope)) hosts.push('\\[::ffff:[0-9a-fA-F:.]+\\]');
  if (scope.ipv4FirstOctets.length) hosts.push(`(?:${scope.ipv4FirstOctets.join('|')})(?:\\.\\d{1,3}){3}`);
  return new RegExp(`^https?://(?:[^/?#@]*@)?(?:${hosts.join('|')})(?::\\d+)?(?:[/?#]|$)`, 'i');
}

/**
 * The guard's verdict on a request URL the browser paused: null to let it go, else why it is refused.
 * Only http(s) URLs are network requests this layer judges (data:, blob: ... pass); one of those the
 * guard cannot check is refused too (fail closed).
 */
export function refusedRequest(guard: SsrfGuard, url: string): BlockedRequest | null {
  if (!/^https?:/i.test(url)) return null;
  try {
    guard.checkUrl(url);
    return null;
  } catch (err) {
    const reason =
      isGleanerError(err) && err.code === 'URL_BLOCKED'
        ? err.message
        : `blocked: ${url.slice(0, 200)} could not be checked (${err instanceof Error ? err.message : String(err)})`;
    return { url, reason, at: Date.now() };
  }
}
