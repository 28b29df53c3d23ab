// The long-lived half of the HTTP driver: the guarded connection pool and the proxy agents.
import { isIP } from 'node:net';
import { Agent, ProxyAgent, buildConnector } from 'undici';
import type { Dispatcher } from 'undici';
import { CONFIG_FIELDS, CookieJar, GleanerError, createSsrfGuard, unbracket } from '@gleaner/core/plugin';
import type { Driver, DriverCapabilities, DriverOptions, DriverSession, DriverSessionOptions, SsrfGuard } from '@gleaner/core/plugin';
import { HttpSession } from './session.ts';

/** The plugin API this plugin was written against (createEngine refuses another major). */
const PLUGIN_API = '1.2';

export const HTTP_DRIVER_NAME = 'http';

/** The shared driver options (`DriverOptions`: config, allowNetworks, guard, resolver, logger, fetch overrides) plus TLS trust. */
export interface HttpDriverOptions extends DriverOptions {
  /** Extra trusted CA certificates (PEM) for https targets and https proxies, e.g. an internal CA. */
  ca?: string | Buffer | Array<string | Buffer>;
}

const CAPABILITIES: Readonly<DriverCapabilities> = Object.freeze({ javascript: false, interaction: true, proxy: true, cookies: true });

function configDefault<T>(field: string): T {
  return CONFIG_FIELDS[field].default as T;
}

/**
 * The connector of direct connections: an IP-literal host is checked here (Node does not call
 * `lookup` for one), a host name is resolved and checked by the guard's `lookup`, and the socket
 * goes to exactly the address the guard checked.
 */
function guardedConnector(guard: SsrfGuard, ca: HttpDriverOptions['ca']): buildConnector.connector {
  const base = buildConnector({ lookup: guard.lookup, ...(ca ? { ca } : {}) });
  return (opts, callback) => {
    const host = unbracket(opts.hostname);
    if (isIP(host)) {
      try {
        guard.checkAddress(host);
      } catch (err) {
        callback(err as Error, null);
        return;
      }
    }
    base(opts, callback);
  };
}

/** Creates the plain-HTTP driver: no JavaScript; links, forms and form fields work on the parsed document. */
export function createHttpDriver(opts: HttpDriverOptions = {}): Driver {
  const fetchCfg = opts.config?.fetch ?? {};
  const guard = opts.guard ?? createSsrfGuard({ allowNetworks: opts.allowNetworks ?? opts.config?.network?.allowNetworks ?? [], resolver: opts.resolver });
  const defaults = {
    userAgent: opts.userAgent ?? fetchCfg.userAgent ?? configDefault<string>('fetch.userAgent'),
    timeoutMs: opts.timeoutMs ?? fetchCfg.timeoutMs ?? configDefault<number>('fetch.timeoutMs'),
    maxBytes: opts.maxBytes ?? fetchCfg.maxBytes ?? configDefault<number>('fetch.maxBytes'),
    maxRedirects: opts.maxRedirects ?? fetchCfg.maxRedirects ?? configDefault<number>('fetch.maxRedirects'),
  };
  const direct = new Agent({ connect: guardedConnector(guard, opts.ca) });
  const proxies = new Map<string, ProxyAgent>();
  const sessions = new Set<HttpSession>();
  let closed = false;

  function proxyAgent(uri: string): ProxyAgent {
    let agent = proxies.get(uri);
    if (!agent) {
      let u: URL;
      try {
        u = new URL(uri);
      } catch {
        throw new GleanerError('CONFIG_INVALID', 'the proxy URL is not a valid URL');
      }
      if (u.protocol !== 'http:' && u.protocol !== 'https:' && u.protocol !== 'socks5:' && u.protocol !== 'socks:') {
        throw new GleanerError('CONFIG_INVALID', `unsupported proxy scheme ${u.protocol}`);
      }
      // The proxy itself is an operator-configured address and is not guarded; the targets are
      // (HttpSession checks each target's resolution before sending it through the proxy).
      agent = new ProxyAgent({ uri, ...(opts.ca ? { requestTls: { ca: opts.ca }, proxyTls: { ca: opts.ca } } : {}) });
      proxies.set(uri, agent);
    }
    return agent;
  }

  return {
    name: HTTP_DRIVER_NAME,
    apiVersion: PLUGIN_API,
    capabilities: CAPABILITIES,

    async openSession(sessionOpts: DriverSessionOptions = {}): Promise<DriverSession> {
      if (closed) throw new GleanerError('DRIVER_UNAVAILABLE', 'the http driver is closed');
      const proxy = sessionOpts.proxy || null;
      const dispatcher: Dispatcher = proxy ? proxyAgent(proxy) : direct;
      const totalMs = sessionOpts.timeouts?.totalMs ?? defaults.timeoutMs;
      const session: HttpSession = new HttpSession({
        driverName: HTTP_DRIVER_NAME,
        guard,
        dispatcher,
        proxy,
        jar: new CookieJar(sessionOpts.cookies ?? []),
        userAgent: sessionOpts.userAgent || defaults.userAgent,
        totalMs,
        headersMs: sessionOpts.timeouts?.headersMs ?? totalMs,
        bodyMs: sessionOpts.timeouts?.bodyMs ?? totalMs,
        maxBytes: sessionOpts.maxBytes ?? defaults.maxBytes,
        maxRedirects: sessionOpts.maxRedirects ?? defaults.maxRedirects,
        signal: sessionOpts.signal,
        logger: sessionOpts.logger ?? opts.logger,
        onClose: () => sessions.delete(session),
      });
      sessions.add(session);
      return session;
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await Promise.all([...sessions].map((s) => s.close()));
      // destroy(), not close(): a slow page still streaming must not keep the process alive.
      await Promise.all([direct.destroy(), ...[...proxies.values()].map((p) => p.destroy())]);
      proxies.clear();
    },
  };
}
