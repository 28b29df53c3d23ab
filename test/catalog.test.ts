import { expect } from 'chai';
import { startStack, waitFor, type Stack } from './support/stack.ts';
import { request } from './support/http.ts';
import { BUILT_PRODUCTS, productBuildAnswers, productsPage } from './support/pages.ts';
import { runCli } from './support/process.ts';
import { rejection } from '@gleaner/testing';
import { TEST_DATABASE_URL } from './support/db.ts';

const ATTRIBUTES = [
  { name: 'name', description: 'product name', type: 'string' },
  { name: 'price', description: 'price in dollars', type: 'number' },
];

/** Builds a classic scraper of the stack's owner on /laptops through the API; its template_id once ready. */
async function buildScraper(s: Stack): Promise<string> {
  s.model.script(productBuildAnswers());
  const gen = await s.api('POST', '/v1/extractor/generate', { url: `${s.site.url}/laptops`, attributes: ATTRIBUTES });
  expect(gen.status, gen.text).to.equal(202);
  const id: string = gen.body.template_id;
  const detail = await waitFor(
    async () => {
      const r = await s.api('GET', `/v1/extractor/${id}`);
      return r.body.status === 'generating' ? undefined : r.body;
    },
    30_000,
    'scraper build',
  );
  expect(detail.status, JSON.stringify(detail)).to.equal('ready');
  return id;
}

describe('public scraper APIs: publish, list, detail, clone', () => {
  let s: Stack;
  let scraperId: string;
  before(async () => {
    s = await startStack();
    s.site.page('/laptops', productsPage());
    scraperId = await buildScraper(s);
  });
  after(() => s?.close());
  beforeEach(() => s.model.reset());

  it('publishes a ready scraper; anyone lists and reads it; a bearer token clones it into a scraper that runs and outlives the entry', async () => {
    const published = await s.engine.catalog.publish({
      scraperId,
      slug: 'laptop-prices',
      title: 'Laptop prices',
      description: 'Names and prices of the laptops of a shop',
      niche: 'E-commerce',
      faqs: [{ question: 'How fresh?', answer: 'Live.' }],
    });
    expect(published).to.include({ slug: 'laptop-prices', created: true, scraperId });

    const list = await request(s.url, 'GET', '/v1/scraper-apis');
    expect(list.status, list.text).to.equal(200);
    expect(list.body).to.deep.include({
      slug: 'laptop-prices',
      title: 'Laptop prices',
      description: 'Names and prices of the laptops of a shop',
      source_domain: '127.0.0.1',
    });

    const detail = await request(s.url, 'GET', '/v1/scraper-apis/laptop-prices');
    expect(detail.status, detail.text).to.equal(200);
    expect(detail.body).to.deep.include({
      slug: 'laptop-prices',
      niche: 'E-commerce',
      use_case: null,
      sample_url: `${s.site.url}/laptops`,
      sample_input: { url: `${s.site.url}/laptops` },
      sample_output: BUILT_PRODUCTS,
      faqs: [{ question: 'How fresh?', answer: 'Live.' }],
      article_links: [],
      input_schema: null,
      output_schema: ATTRIBUTES,
    });
    expect(detail.body).to.not.have.property('snapshot');

    const bob = await s.engine.createAccessToken('bob', 600);
    const bobKey = (await s.engine.createApiKey('bob')).key;
    const clone = await request(s.url, 'POST', '/v1/scraper-apis/laptop-prices/clone', { headers: { Authorization: `Bearer ${bob.token}` } });
    expect(clone.status, clone.text).to.equal(200);
    expect(clone.body).to.have.keys('template_id', 'type', 'name');
    expect(clone.body.type).to.equal('extractor');
    expect(clone.body.template_id).to.not.equal(scraperId);

    const mine = await s.api('GET', '/v1/scrapers', undefined, { 'X-API-KEY': bobKey });
    expect(mine.body).to.have.length(1);
    expect(mine.body[0]).to.include({ id: clone.body.template_id, name: clone.body.name, type: 'extractor', status: 'ready' });

    // The entry goes away and the owner's scraper changes: the clone is a copy and runs as before, without a model.
    await s.engine.catalog.unpublish('laptop-prices');
    expect((await request(s.url, 'GET', '/v1/scraper-apis/laptop-prices')).status).to.equal(404);
    s.site.page('/laptops-2', productsPage().replace('Alpha Book', 'Alpha Book 2'));
    const run = await s.api('POST', '/v1/scrapers/run', { template_id: clone.body.template_id, url: `${s.site.url}/laptops-2` }, { 'X-API-KEY': bobKey });
    expect(run.status, run.text).to.equal(200);
    expect(run.body.data).to.deep.equal([{ name: 'Alpha Book 2', price: 1299 }, ...BUILT_PRODUCTS.slice(1)]);
    expect(s.model.chatRequests()).to.have.length(0);
    // Only bob sees his clone; alice's scraper is untouched.
    expect((await s.api('GET', `/v1/extractor/${clone.body.template_id}`)).status).to.equal(404);
  });

  it('clone needs a bearer token (an API key is 401), and an unknown slug is 404', async () => {
    await s.engine.catalog.publish({ scraperId, slug: 'laptops-auth', title: 'Laptops', description: 'd' });
    const withKey = await s.api('POST', '/v1/scraper-apis/laptops-auth/clone');
    expect(withKey.status).to.equal(401);
    expect(withKey.body.code).to.equal('UNAUTHORIZED');
    expect(withKey.headers.get('www-authenticate')).to.match(/^Bearer/);
    const keyAsBearer = await request(s.url, 'POST', '/v1/scraper-apis/laptops-auth/clone', { headers: { Authorization: `Bearer ${s.key}` } });
    expect(keyAsBearer.status).to.equal(401);
    const none = await request(s.url, 'POST', '/v1/scraper-apis/laptops-auth/clone');
    expect(none.status).to.equal(401);

    const token = (await s.engine.createAccessToken('carol', 600)).token;
    const unknown = await request(s.url, 'POST', '/v1/scraper-apis/no-such-api/clone', { headers: { Authorization: `Bearer ${token}` } });
    expect(unknown.status).to.equal(404);
    expect(unknown.body.code).to.equal('NOT_FOUND');
    const detail = await request(s.url, 'GET', '/v1/scraper-apis/no-such-api');
    expect(detail.status).to.equal(404);
    expect(detail.body.detail).to.contain('no-such-api');
    await s.engine.catalog.unpublish('laptops-auth');
  });

  it("refuses bad slugs, scrapers that are not ready, unknown scrapers, and another owner's slug; re-publishing updates the snapshot and keeps omitted fields", async () => {
    const bad = await rejection(s.engine.catalog.publish({ scraperId, slug: 'Bad Slug!', title: 't', description: 'd' }));
    expect(bad.code).to.equal('BAD_REQUEST');
    expect(bad.message).to.contain('invalid slug "Bad Slug!"');
    expect((await rejection(s.engine.catalog.publish({ scraperId, slug: '-x', title: 't', description: 'd' }))).code).to.equal('BAD_REQUEST');

    const empty = await s.api('POST', '/v1/extractor/new');
    const notReady = await rejection(s.engine.catalog.publish({ scraperId: empty.body.template_id, slug: 'empty', title: 't', description: 'd' }));
    expect(notReady.code).to.equal('SCRAPER_NOT_READY');
    expect(notReady.message).to.contain('not ready');
    expect((await rejection(s.engine.catalog.publish({ scraperId: 'nope', slug: 'nope', title: 't', description: 'd' }))).code).to.equal('NOT_FOUND');

    await s.engine.catalog.publish({ scraperId, slug: 'shared', title: 'First', description: 'd', niche: 'Shops', faqs: [{ question: 'Q', answer: 'A' }] });
    // Dave's scraper: a clone of alice's (ready), so dave can try to publish under her slug.
    const daveToken = (await s.engine.createAccessToken('dave', 600)).token;
    const daveClone = await request(s.url, 'POST', '/v1/scraper-apis/shared/clone', { headers: { Authorization: `Bearer ${daveToken}` } });
    const taken = await rejection(s.engine.catalog.publish({ scraperId: daveClone.body.template_id, slug: 'shared', title: 'Mine', description: 'd' }));
    expect(taken.code).to.equal('CONFLICT');
    expect(taken.message).to.contain('already published by another owner');

    // Alice rebuilds her scraper with one more attribute and re-publishes: new snapshot, niche and FAQs kept.
    s.model.script([
      { json: { records: BUILT_PRODUCTS.map((r) => ({ ...r, price: String(r.price), currency: 'USD' })) } },
      {
        json: {
          container: { selector: 'div.card' },
          fields: { name: f('h2'), price: f('.price'), currency: { ...f(null), read: 'const', value: 'USD' } },
          pagination: null,
        },
      },
    ]);
    const regen = await s.api('POST', '/v1/extractor/generate', {
      template_id: scraperId,
      url: `${s.site.url}/laptops`,
      attributes: [...ATTRIBUTES, { name: 'currency', type: 'string' }],
    });
    expect(regen.status, regen.text).to.equal(202);
    await waitFor(async () => (await s.api('GET', `/v1/extractor/${scraperId}`)).body.status === 'ready', 30_000, 'rebuild');
    const again = await s.engine.catalog.publish({ scraperId, slug: 'shared', title: 'Second', description: 'd2' });
    expect(again.created).to.equal(false);
    const detail = (await request(s.url, 'GET', '/v1/scraper-apis/shared')).body;
    expect(detail).to.deep.include({ title: 'Second', description: 'd2', niche: 'Shops', faqs: [{ question: 'Q', answer: 'A' }] });
    expect(detail.output_schema.map((a: { name: string }) => a.name)).to.deep.equal(['name', 'price', 'currency']);
    expect(detail.sample_output[0]).to.deep.equal({ name: 'Alpha Book', price: 1299, currency: 'USD' });
    // Dave's earlier clone did not change with it.
    const daveKey = (await s.engine.createApiKey('dave')).key;
    const daveDetail = await s.api('GET', `/v1/extractor/${daveClone.body.template_id}`, undefined, { 'X-API-KEY': daveKey });
    expect(daveDetail.body.attributes.map((a: { name: string }) => a.name)).to.deep.equal(['name', 'price']);
    await s.engine.catalog.unpublish('shared');
    expect((await rejection(s.engine.catalog.unpublish('shared'))).code).to.equal('NOT_FOUND');
  });

  it('gleaner catalog publish / unpublish print one line; errors go to stderr with a non-zero exit', async function () {
    this.timeout(300_000); // eight CLI processes, each starting Node and connecting
    const env = { DATABASE_URL: TEST_DATABASE_URL, GLEANER_DB_SCHEMA: s.schemas.schema, GLEANER_JOBS_SCHEMA: s.schemas.jobsSchema };
    const args = ['catalog', 'publish', '--scraper', scraperId, '--slug', 'cli-laptops', '--title', 'Laptops (CLI)', '--description', 'From the CLI'];
    const pub = await runCli(
      [...args, '--use-case', 'price watch', '--faq', 'Is it free?|Yes, self-hosted.', '--faq', 'Pages?|One.', '--sample-url', `${s.site.url}/laptops?page=1`],
      env,
    );
    expect(pub.code, pub.stderr).to.equal(0);
    expect(pub.stdout).to.equal(`published cli-laptops (scraper ${scraperId})\n`);
    const detail = (await request(s.url, 'GET', '/v1/scraper-apis/cli-laptops')).body;
    expect(detail).to.deep.include({
      title: 'Laptops (CLI)',
      use_case: 'price watch',
      sample_url: `${s.site.url}/laptops?page=1`,
      sample_input: { url: `${s.site.url}/laptops?page=1` },
      faqs: [
        { question: 'Is it free?', answer: 'Yes, self-hosted.' },
        { question: 'Pages?', answer: 'One.' },
      ],
    });
    const update = await runCli([...args, '--sample-url', `${s.site.url}/laptops?page=2`], env);
    expect(update.stdout).to.equal(`updated cli-laptops (scraper ${scraperId})\n`);
    // Omitted fields kept; the derived sample input follows the new sample URL.
    expect((await request(s.url, 'GET', '/v1/scraper-apis/cli-laptops')).body).to.deep.include({
      use_case: 'price watch',
      sample_input: { url: `${s.site.url}/laptops?page=2` },
    });

    const badFaq = await runCli([...args, '--faq', 'no separator'], env);
    expect(badFaq.code).to.not.equal(0);
    expect(badFaq.stderr).to.contain('Question|Answer');
    const badSlug = await runCli(['catalog', 'publish', '--scraper', scraperId, '--slug', 'Has Spaces', '--title', 't', '--description', 'd'], env);
    expect(badSlug.code).to.equal(1);
    expect(badSlug.stderr).to.contain('invalid slug');
    expect(badSlug.stdout).to.equal('');
    const empty = await s.api('POST', '/v1/extractor/new');
    const notReady = await runCli(['catalog', 'publish', '--scraper', empty.body.template_id, '--slug', 'x', '--title', 't', '--description', 'd'], env);
    expect(notReady.code).to.equal(1);
    expect(notReady.stderr).to.contain('SCRAPER_NOT_READY');

    const un = await runCli(['catalog', 'unpublish', 'cli-laptops'], env);
    expect(un.code, un.stderr).to.equal(0);
    expect(un.stdout).to.equal('unpublished cli-laptops\n');
    const unAgain = await runCli(['catalog', 'unpublish', 'cli-laptops'], env);
    expect(unAgain.code).to.equal(2);
    expect(unAgain.stderr).to.contain('no public scraper API with slug "cli-laptops"');
  });
});

function f(selector: string | null) {
  return { selector, read: 'text', attr: null, name: null, path: null, value: null, all: false, transforms: [], fallback: null };
}
