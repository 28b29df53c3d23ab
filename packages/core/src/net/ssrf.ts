/**
 * The SSRF guard: what a driver may connect to. Only http(s) URLs, and only public unicast addresses
 * (as ipaddr.js classifies them) unless an address lies in one of the operator's `allowNetworks`.
 *
 * The guard resolves a host name once, checks every address of that one answer, and hands exactly
 * those addresses to the connection (`lookup`), so a DNS answer that changes between "check" and
 * "connect" (DNS rebinding) cannot slip a private address through.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { GleanerError, isGleanerError } from '../errors.ts';

/** One address of a host, as the guard checked it (IPv4-mapped IPv6 already turned into IPv4). */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (one DNS answer). Injectable for tests. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface SsrfGuardOptions {
  /** CIDRs (or single addresses) exempt from the guard: `network.allowNetworks`. */
  allowNetworks?: readonly string[];
  /** Replaces the system resolver (`dns.lookup`, all addresses). */
  resolver?: Resolver;
}

/** What the guard thinks of one address. */
export interface AddressVerdict {
  /** The normalised address (IPv4-mapped IPv6 as IPv4). */
  address: string;
  family: 4 | 6;
  /** ipaddr.js's range name: `unicast`, `private`, `loopback`, `linkLocal`, ... */
  range: string;
  allowed: boolean;
  /** Why it is allowed: a public unicast address, or inside an allowed network. */
  via?: 'public' | 'allowNetworks';
}

export interface SsrfGuard {
  /**
   * Parses and checks a URL without DNS: http(s) only (else URL_INVALID), and an IP-literal host
   * (any WHATWG form: `127.1`, `0x7f.1`, `2130706433`, `[::ffff:127.0.0.1]`) must be allowed
   * (else URL_BLOCKED). Host names are checked when they are resolved (`lookup`, `resolve`).
   */
  checkUrl(url: string | URL): URL;
  /** Throws URL_BLOCKED unless the address may be reached; returns it normalised. */
  checkAddress(ip: string, hostname?: string): ResolvedAddress;
  /** Classifies an address without throwing (URL_INVALID if it is not an address at all). */
  classify(ip: string): AddressVerdict;
  /** Resolves a host (once) and checks every address; refuses if any one is blocked. */
  resolve(hostname: string): Promise<ResolvedAddress[]>;
  /** `checkUrl` plus the checked resolution of its host (for callers that cannot use `lookup`). */
  checkUrlResolved(url: string | URL): Promise<{ url: URL; addresses: ResolvedAddress[] }>;
  /**
   * A `lookup` for `net.connect` / `tls.connect` (and undici's `connect` options): one resolution,
   * every address checked, the connection made to exactly the checked addresses.
   */
  lookup: LookupFunction;
}

type IPAddress = ReturnType<typeof ipaddr.parse>;

const RANGE_WORDS: Record<string, string> = {
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT (shared) address',
  private: 'a private address',
  uniqueLocal: 'a unique-local (private) address',
  reserved: 'a reserved address',
  benchmarking: 'a benchmarking address',
  deprecatedSiteLocal: 'a site-local (private) address',
  rfc6052: 'a NAT64 address',
  rfc6145: 'an IPv4-translated address',
  '6to4': 'a 6to4 address',
  teredo: 'a Teredo address',
};

/** "a link-local address" for `linkLocal`; names any other non-public range by its ipaddr.js name. */
export function describeRange(range: string): string {
  return RANGE_WORDS[range] ?? `a non-public address (${range})`;
}

/** `[::1]` -> `::1`: URL hostnames keep IPv6 brackets. */
export function unbracket(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/** True when `host` is an IP address in any form ipaddr.js (and WHATWG URL) accepts. */
export function isIpLiteral(host: string): boolean {
  return ipaddr.isValid(unbracket(host));
}

function parseAddress(ip: string): IPAddress {
  const raw = unbracket(ip.trim());
  if (!ipaddr.isValid(raw)) throw new GleanerError('URL_INVALID', `not an IP address: ${ip}`);
  // process() turns IPv4-mapped IPv6 (::ffff:127.0.0.1) into the IPv4 address it carries.
  return ipaddr.process(raw);
}

/** Parses `network.allowNetworks`; a bare address means that one address. */
export function parseAllowNetworks(list: readonly string[] = []): Array<[IPAddress, number]> {
  const out: Array<[IPAddress, number]> = [];
  for (const entry of list) {
    const text = entry.trim();
    if (!text) continue;
    try {
      let [net, bits] = text.includes('/') ? ipaddr.parseCIDR(text) : [ipaddr.parse(text), -1];
      if (bits < 0) bits = net.kind() === 'ipv4' ? 32 : 128;
      if (net.kind() === 'ipv6' && (net as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
        net = (net as ipaddr.IPv6).toIPv4Address();
        bits -= 96;
      }
      out.push([net, bits]);
    } catch {
      throw new GleanerError('CONFIG_INVALID', `network.allowNetworks: "${text}" is not a CIDR such as 10.0.0.0/8 or 127.0.0.1/32`);
    }
  }
  return out;
}

/** How to let Gleaner reach a blocked address, for the URL_BLOCKED message. */
function allowHint(address: string, family: 4 | 6): string {
  return `to allow it, add ${address}/${family === 4 ? 32 : 128} (or a network holding it) to GLEANER_ALLOW_NETWORKS (network.allowNetworks) and restart Gleaner`;
}

const defaultResolver: Resolver = async (hostname) => {
  const answers = await dnsLookup(hostname, { all: true, order: 'verbatim' });
  return answers.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** Builds the guard. `allowNetworks` errors are thrown here (CONFIG_INVALID), not per request. */
export function createSsrfGuard(opts: SsrfGuardOptions = {}): SsrfGuard {
  const allowed = parseAllowNetworks(opts.allowNetworks);
  const resolver = opts.resolver ?? defaultResolver;

  function classify(ip: string): AddressVerdict {
    const addr = parseAddress(ip);
    const family = addr.kind() === 'ipv4' ? 4 : 6;
    const range = addr.range();
    const address = addr.toString();
    if (allowed.some(([net, bits]) => net.kind() === addr.kind() && addr.match(net, bits))) {
      return { address, family, range, allowed: true, via: 'allowNetworks' };
    }
    if (range === 'unicast') return { address, family, range, allowed: true, via: 'public' };
    return { address, family, range, allowed: false };
  }

  function checkAddress(ip: string, hostname?: string): ResolvedAddress {
    const v = classify(ip);
    if (!v.allowed) {
      const what = describeRange(v.range);
      const message =
        hostname && unbracket(hostname) !== v.address && !isIpLiteral(hostname)
          ? `blocked: ${hostname} resolves to ${v.address}, ${what}`
          : `blocked: ${v.address} is ${what}`;
      throw new GleanerError('URL_BLOCKED', `${message}; ${allowHint(v.address, v.family)}`, {
        details: { host: hostname ?? v.address, address: v.address, range: v.range },
      });
    }
    return { address: v.address, family: v.family };
  }

  function checkUrl(input: string | URL): URL {
    let url: URL;
    try {
      url = input instanceof URL ? input : new URL(String(input).trim());
    } catch {
      throw new GleanerError('URL_INVALID', `not a valid absolute URL: ${String(input).slice(0, 200)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new GleanerError('URL_INVALID', `only http and https URLs can be fetched, not ${url.protocol.replace(/:$/, '')}: ${url.href.slice(0, 200)}`);
    }
    const host = unbracket(url.hostname);
    if (!host) throw new GleanerError('URL_INVALID', `the URL has no host: ${url.href.slice(0, 200)}`);
    if (isIpLiteral(host)) checkAddress(host);
    return url;
  }

  async function resolve(hostname: string): Promise<ResolvedAddress[]> {
    const host = unbracket(hostname);
    if (isIpLiteral(host)) return [checkAddress(host)];
    const answers = await resolver(host);
    if (!answers.length) {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND', hostname: host });
    }
    const seen = new Set<string>();
    const out: ResolvedAddress[] = [];
    // Every address is checked before any is used: a name answering [public, private] is refused.
    for (const answer of answers) {
      const checked = checkAddress(answer.address, host);
      if (!seen.has(checked.address)) {
        seen.add(checked.address);
        out.push(checked);
      }
    }
    return out;
  }

  async function checkUrlResolved(input: string | URL): Promise<{ url: URL; addresses: ResolvedAddress[] }> {
    const url = checkUrl(input);
    return { url, addresses: await resolve(url.hostname) };
  }

  const lookup: LookupFunction = (hostname: string, options: LookupOptions, callback) => {
    resolve(hostname).then(
      (all) => {
        const fam = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : Number(options.family ?? 0);
        const list = fam === 4 || fam === 6 ? all.filter((a) => a.family === fam) : all;
        if (!list.length) {
          callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname }), '');
        } else if (options.all) {
          callback(
            null,
            list.map((a): LookupAddress => ({ address: a.address, family: a.family })),
          );
        } else {
          callback(null, list[0].address, list[0].family);
        }
      },
      (err: unknown) => callback(err as NodeJS.ErrnoException, ''),
    );
  };

  return { checkUrl, checkAddress, classify, resolve, checkUrlResolved, lookup };
}

/**
 * Refuses, when a request is accepted, the URLs its fetches would refuse (URL_BLOCKED, with the
 * fetch's own message), so that every endpoint answers a blocked start URL at once instead of
 * failing in the background. Literal addresses are checked all; host names are resolved, at most
 * `maxHosts` distinct ones, each within `timeoutMs`. A name that does not resolve (or not in time)
 * is left to the fetch, which reports it where it happens.
 */
export async function refuseBlockedUrls(
  allowNetworks: readonly string[],
  urls: Iterable<string>,
  opts: { maxHosts?: number; timeoutMs?: number; resolver?: Resolver } = {},
): Promise<void> {
  const guard = createSsrfGuard({ allowNetworks, resolver: opts.resolver });
  const hosts = new Set<string>();
  for (const url of urls) {
    const parsed = guard.checkUrl(url); // literal addresses: no lookup needed
    if (!isIpLiteral(parsed.hostname)) hosts.add(parsed.hostname);
  }
  const timeoutMs = opts.timeoutMs ?? 3_000;
  await Promise.all(
    [...hosts].slice(0, opts.maxHosts ?? 20).map(async (host) => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
      try {
        await Promise.race([guard.resolve(host), late]);
      } catch (err) {
        if (isGleanerError(err) && err.code === 'URL_BLOCKED') throw err;
      } finally {
        clearTimeout(timer);
      }
    }),
  );
}
