import { expect } from 'chai';
import { createSsrfGuard, GleanerError } from '@gleaner/core/internal';
import type { Driver, Resolver } from '@gleaner/core/internal';
import { createHttpDriver } from '@gleaner/driver-http';
import { startFixtureSite, type FixtureSite, rejection } from '@gleaner/testing';

function expectThrows(fn: () => unknown): GleanerError {
  try {
    fn();
  } catch (err) {
    expect(err).to.be.instanceOf(GleanerError);
    return err as GleanerError;
  }
  throw new Error('expected a throw');
}

/** A stub resolver answering from a script, one answer per call, counting calls. */
function scriptedResolver(...answers: string[][]): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const fn = async (host: string) => {
    calls.push(host);
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)];
    return answer.map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) }));
  };
  return Object.assign(fn, { calls });
}

describe('ssrf guard: addresses and URLs', () => {
  const guard = createSsrfGuard({ allowNetworks: [] });

  const blocked: Array<[string, string]> = [
    ['http://127.1/', 'blocked: 127.0.0.1 is a loopback address'],
    ['http://0x7f.1/', 'blocked: 127.0.0.1 is a loopback address'],
    ['http://2130706433/', 'blocked: 127.0.0.1 is a loopback address'],
    ['http://[::ffff:127.0.0.1]/', 'blocked: 127.0.0.1 is a loopback address'],
    ['http://0.0.0.0/', 'blocked: 0.0.0.0 is an unspecified address'],
    ['http://169.254.169.254/latest/meta-data/', 'blocked: 169.254.169.254 is a link-local address'],
    ['http://100.64.0.1/', 'blocked: 100.64.0.1 is a carrier-grade NAT (shared) address'],
    ['http://10.0.0.1/', 'blocked: 10.0.0.1 is a private address'],
    ['http://192.168.1.1/', 'blocked: 192.168.1.1 is a private address'],
    ['http://[fd00::1]/', 'blocked: fd00::1 is a unique-local (private) address'],
    ['http://[::1]/', 'blocked: ::1 is a loopback address'],
    ['http://[fe80::1]/', 'blocked: fe80::1 is a link-local address'],
    ['https://[64:ff9b::a00:1]/', 'blocked: 64:ff9b::a00:1 is a NAT64 address'],
  ];
  for (const [url, message] of blocked) {
    it(`refuses ${url}`, () => {
      const err = expectThrows(() => guard.checkUrl(url));
      expect(err.code).to.equal('URL_BLOCKED');
      // The address named, then how to allow it (issue 23 item 2).
      const address = message.split(' ')[1];
      expect(err.message).to.equal(
        `${message}; to allow it, add ${address}/${address.includes(':') ? 128 : 32} (or a network holding it) to GLEANER_ALLOW_NETWORKS (network.allowNetworks) and restart Gleaner`,
      );
    });
  }

  it('refuses schemes other than http and https, and junk', () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/file', 'gopher://example.com/', 'javascript:alert(1)', 'not a url']) {
      expect(expectThrows(() => guard.checkUrl(url)).code, url).to.equal('URL_INVALID');
    }
  });

  it('lets public addresses and host names through checkUrl', () => {
    expect(guard.checkUrl('https://93.184.216.34/x').hostname).to.equal('93.184.216.34');
    expect(guard.checkUrl('http://[2606:4700::1]/').hostname).to.equal('[2606:4700::1]');
    expect(guard.checkUrl('https://example.com/').hostname).to.equal('example.com'); // checked when resolved
  });

  it('exempts allowNetworks, with IPv4-mapped forms normalised both ways', () => {
    const g = createSsrfGuard({ allowNetworks: ['127.0.0.1/32', '::ffff:10.1.0.0/112', 'fd00::/8'] });
    expect(g.classify('127.0.0.1')).to.include({ allowed: true, via: 'allowNetworks' });
    expect(g.classify('::ffff:127.0.0.1')).to.include({ address: '127.0.0.1', allowed: true });
    expect(g.classify('10.1.2.3')).to.include({ allowed: true });
    expect(g.classify('fd00::1')).to.include({ allowed: true });
    expect(g.classify('127.0.0.2')).to.include({ allowed: false, range: 'loopback' });
    expect(g.classify('8.8.8.8')).to.include({ allowed: true, via: 'public' });
  });

  it('rejects an invalid allowNetworks entry at construction', () => {
    expect(expectThrows(() => createSsrfGuard({ allowNetworks: ['10.0.0.0/33'] })).code).to.equal('CONFIG_INVALID');
    expect(expectThrows(() => createSsrfGuard({ allowNetworks: ['intranet'] })).code).to.equal('CONFIG_INVALID');
  });

  it('refuses a name whose answer holds any blocked address, naming both', async () => {
    const g = createSsrfGuard({ resolver: scriptedResolver(['93.184.216.34', '10.0.0.7']) });
    const err = await rejection(g.resolve('mixed.example'));
    expect(err.code).to.equal('URL_BLOCKED');
    expect(err.message).to.equal(
      'blocked: mixed.example resolves to 10.0.0.7, a private address; to allow it, add 10.0.0.7/32 (or a network holding it) to GLEANER_ALLOW_NETWORKS (network.allowNetworks) and restart Gleaner',
    );
  });

  it('lookup resolves once and hands back exactly the checked address (public, then private)', async () => {
    const resolver = scriptedResolver(['93.184.216.34'], ['127.0.0.1']);
    const g = createSsrfGuard({ resolver });
    const one = await new Promise<unknown[]>((ok, ko) => g.lookup('rebind.example', {}, (err, address, family) => (err ? ko(err) : ok([address, family]))));
    expect(one).to.deep.equal(['93.184.216.34', 4]);
    expect(resolver.calls).to.deep.equal(['rebind.example']);
    // The next connection resolves again and meets the private answer: refused.
    const err = await new Promise<unknown>((ok) => g.lookup('rebind.example', { all: true }, (e) => ok(e)));
    expect((err as GleanerError).code).to.equal('URL_BLOCKED');
  });

  it('lookup with all:true returns every checked address, IPv4-mapped ones as IPv4', async () => {
    const g = createSsrfGuard({ resolver: scriptedResolver(['::ffff:93.184.216.34', '2606:4700::1']) });
    const all = await new Promise<unknown>((ok, ko) => g.lookup('dual.example', { all: true }, (err, addresses) => (err ? ko(err) : ok(addresses))));
    expect(all).to.deep.equal([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:4700::1', family: 6 },
    ]);
  });
});

// The refusal table every driver shares (literal forms, metadata, resolved names, redirect hops,
// proxies) runs in each driver plugin's test/contract.test.ts; this is the http driver's own connect-time check.
/** Two fixture sites on one port, 127.0.0.2 and 127.0.0.1: the port 127.0.0.2 was given may be taken on 127.0.0.1, so try again. */
async function samePortOnTwoAddresses() {
  for (let attempt = 0; ; attempt++) {
    const other = await startFixtureSite({ host: '127.0.0.2' });
    try {
      return { other, allowed: await startFixtureSite({ host: '127.0.0.1', port: other.port }) };
    } catch (err) {
      await other.close();
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 20) throw err;
    }
  }
}

describe('ssrf guard: the http driver connects to the address it checked', () => {
  let drivers: Driver[] = [];
  const driver = (opts: Parameters<typeof createHttpDriver>[0]) => {
    const d = createHttpDriver({ timeoutMs: 3000, ...opts });
    drivers.push(d);
    return d;
  };

  afterEach(async () => {
    await Promise.all(drivers.map((d) => d.close()));
    drivers = [];
  });

  it('connects to the address it checked: a name answering allowed, then blocked, is fetched from the first answer only', async () => {
    const { other, allowed } = await samePortOnTwoAddresses();
    try {
      allowed.page('/', '<p>the checked address</p>');
      other.page('/', '<p>the rebound address</p>');
      const resolver = scriptedResolver(['127.0.0.1'], ['127.0.0.2']);
      const session = await driver({ allowNetworks: ['127.0.0.1/32'], resolver }).openSession();
      const page = await session.goto(`http://rebind.test:${other.port}/`);
      expect(page.html).to.contain('the checked address');
      expect(resolver.calls).to.deep.equal(['rebind.test']);
      expect(other.connections).to.equal(0);
    } finally {
      await Promise.all([other.close(), allowed.close()]);
    }
  });
});
