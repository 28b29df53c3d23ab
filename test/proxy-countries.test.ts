// Issue 16, item 4: every country name the hosted service documents is accepted (and ISO 3166
// alpha-2 codes), listed by GET /v1/proxy-countries; a country without a proxy is fetched directly
// or refused (network.unproxiedCountry), recorded on the task either way.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import pg from 'pg';
import { canonicalProxyCountry, proxyRoute } from '@gleaner/core/internal';
import { startStack, type Stack } from './support/stack.ts';
import { request } from './support/http.ts';
import { TEST_DATABASE_URL } from './support/db.ts';

const DOCUMENTED: Record<string, string> = JSON.parse(readFileSync(new URL('../packages/core/src/net/proxy-countries.json', import.meta.url), 'utf8'));

async function taskCount(s: Stack): Promise<number> {
  const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await c.connect();
  try {
    return (await c.query(`SELECT count(*)::int AS n FROM "${s.schemas.schema}".tasks`)).rows[0].n;
  } finally {
    await c.end();
  }
}

async function taskProxy(s: Stack, id: string): Promise<string | null> {
  const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await c.connect();
  try {
    return (await c.query(`SELECT proxy FROM "${s.schemas.schema}".tasks WHERE id = $1`, [id])).rows[0]?.proxy ?? null;
  } finally {
    await c.end();
  }
}

describe('proxy countries (issue 16 item 4)', () => {
  it('knows every documented country, its ISO code, and the earlier CzechRepublic', () => {
    expect(Object.keys(DOCUMENTED)).to.have.length.greaterThan(120);
    for (const value of Object.keys(DOCUMENTED)) expect(canonicalProxyCountry(value), value).to.equal(value);
    for (const [code, value] of [
      ['ro', 'Romania'],
      ['CL', 'Chile'],
      ['vn', 'Vietnam'],
      ['GB', 'UnitedKingdom'],
      ['us', 'UnitedStates'],
      ['cz', 'Chechia'],
      ['tr', 'Turkey'],
    ]) {
      expect(canonicalProxyCountry(code), code).to.equal(value);
    }
    expect(canonicalProxyCountry('CzechRepublic')).to.equal('Chechia');
    expect(canonicalProxyCountry('Atlantis')).to.equal(undefined);
  });

  it('says how each country is fetched, and refuses an unproxied one under "refuse"', () => {
    const direct = { network: { proxies: { Chile: 'http://127.0.0.1:3128' }, defaultProxyCountry: '', unproxiedCountry: 'direct' as const } };
    expect(proxyRoute(null, direct)).to.equal('direct');
    expect(proxyRoute('Chile', direct)).to.equal('proxy:Chile');
    expect(proxyRoute('ro', direct)).to.equal('direct:no proxy for Romania');
    const refuse = { network: { ...direct.network, unproxiedCountry: 'refuse' as const } };
    expect(() => proxyRoute('Romania', refuse)).to.throw(/Romania.*countries with a proxy: Chile/);
    expect(proxyRoute('cl', refuse)).to.equal('proxy:Chile');
  });

  describe('over HTTP, direct (the default)', () => {
    let s: Stack;
    before(async () => {
      s = await startStack({ worker: false });
    });
    after(async () => {
      await s?.close();
    });

    it('lists exactly the documented values with their labels', async () => {
      const res = await request(s.url, 'GET', '/v1/proxy-countries');
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal(DOCUMENTED);
    });

    it('accepts countries it used to refuse, and ISO codes, recording a direct fetch on the task', async () => {
      for (const country of ['Romania', 'Chile', 'Vietnam', 'vn']) {
        const res = await s.api('POST', '/v1/extractor/extract_async', { url: `${s.site.url}/`, prompt: 'x', proxy_country: country });
        expect(res.status, `${country}: ${JSON.stringify(res.body)}`).to.equal(202);
        expect(await taskProxy(s, res.body.task_id)).to.match(/^direct:no proxy for (Romania|Chile|Vietnam)$/);
      }
      const unknown = await s.api('POST', '/v1/extractor/extract_async', { url: `${s.site.url}/`, prompt: 'x', proxy_country: 'Atlantis' });
      expect(unknown.status).to.equal(422);
      expect(unknown.body.detail[0].loc).to.deep.equal(['body', 'proxy_country']);
    });
  });

  describe('over HTTP, refuse', () => {
    let s: Stack;
    before(async () => {
      s = await startStack({
        worker: false,
        config: { network: { allowNetworks: ['127.0.0.0/8'], proxies: { Chile: 'http://127.0.0.1:9/' }, unproxiedCountry: 'refuse' } },
      });
    });
    after(async () => {
      await s?.close();
    });

    it('answers 400 naming the countries that have a proxy, stores nothing, and records the proxied one', async () => {
      const refused = await s.api('POST', '/v1/extractor/extract_async', { url: `${s.site.url}/`, prompt: 'x', proxy_country: 'Romania' });
      expect(refused.status).to.equal(400);
      expect(refused.body.code).to.equal('PROXY_NOT_CONFIGURED');
      expect(refused.body.detail).to.contain('Chile');
      const sync = await s.api('POST', '/v1/extract', { url: `${s.site.url}/`, prompt: 'x', proxy_country: 'ro' });
      expect(sync.status).to.equal(400);
      expect(await taskCount(s)).to.equal(0);
      const ok = await s.api('POST', '/v1/extractor/extract_async', { url: `${s.site.url}/`, prompt: 'x', proxy_country: 'CL' });
      expect(ok.status).to.equal(202);
      expect(await taskProxy(s, ok.body.task_id)).to.equal('proxy:Chile');
      expect(await taskCount(s)).to.equal(1);
    });
  });
});
