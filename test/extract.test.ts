import { expect } from 'chai';
import { countTokens } from '@gleaner/core/internal';
import { startStack, sentSchema, userContent, type Stack } from './support/stack.ts';
import { startForwardProxy, type ForwardProxy } from '@gleaner/testing';
import { PRODUCT_ATTRIBUTES, answerItems, listPage, productAnswer, productsPage } from './support/pages.ts';
import { recipeField as f, recipeTransform as t } from './support/recipe-answers.ts';

for (const provider of ['openai', 'ollama'] as const) {
  describe(`extract API end to end (${provider} provider)`, () => {
    let s: Stack;
    before(async () => {
      s = await startStack({ provider });
      s.site.page('/laptops', productsPage());
    });
    after(() => s.close());
    beforeEach(() => s.model.reset());

    it('extracts typed records from a URL: numbers, booleans, absolute image URLs, nulls', async () => {
      s.model.script([{ json: productAnswer(s.site.url) }]);
      const res = await s.api('POST', '/v1/extract', {
        url: `${s.site.url}/laptops`,
        attributes: [...PRODUCT_ATTRIBUTES, { name: 'rating', type: 'number' }],
        source: 'n8n',
      });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data).to.have.length(3);
      expect(res.body.data[0]).to.deep.equal({
        name: 'Alpha Book',
        price: 1299,
        image: `${s.site.url}/img/alpha.jpg`,
        in_stock: true,
        url: `${s.site.url}/p/alpha?ref=7`,
        rating: null,
      });
      expect(res.body.data[1]).to.include({ price: 899.5, in_stock: false });
      expect(res.body.data[2]).to.include({ price: 2450, in_stock: true, image: `${s.site.url}/img/gamma.jpg` });
      // The model read the facts and not the boilerplate.
      const [call] = s.model.chatRequests();
      expect(call.api).to.equal(provider);
      const input = userContent(call);
      // Links and images on the page's own site are written from the site's root (fewer tokens).
      for (const fact of ['Alpha Book', '$1,299.00', '](/img/alpha.jpg)', '](/p/beta)', 'Gamma Pro']) expect(input).to.contain(fact);
      for (const junk of ['SECRET_SCRIPT_TOKEN', 'SECRET_STYLE', 'HIDDEN_TEXT_TOKEN', 'SVG_PATH_TOKEN', 'COOKIE_BANNER_TEXT', 'utm_source'])
        expect(input).to.not.contain(junk);
      const schema = sentSchema(call);
      expect(schema.properties.records.items.required).to.deep.equal(['name', 'price', 'image', 'in_stock', 'url', 'rating']);
      expect(schema.properties.records.items.properties.price.type).to.deep.equal(['number', 'null']);
    });

    it('lists the configured model at /v1/llm-specs and records usage per owner', async () => {
      const specs = await s.api('GET', '/v1/llm-specs');
      expect(specs.status).to.equal(200);
      expect(specs.body).to.have.length(1);
      expect(specs.body[0]).to.include({ id: 'test-model', provider, context_window: 32768 });
      const { rows } = await s.engine.db.query(
        `SELECT operation, pages, model_calls, input_tokens, output_tokens, credits FROM usage_events u JOIN owners o ON o.id = u.owner_id WHERE o.name = 'alice' AND operation = 'extract' ORDER BY u.id LIMIT 1`,
      );
      expect(rows[0]).to.include({ operation: 'extract', pages: 1, model_calls: 1 });
      expect(rows[0].input_tokens).to.be.greaterThan(0);
      expect(Number(rows[0].credits)).to.equal(1); // credits.extractPage
    });

    it('accepts the three attribute shapes and asks for the same fields', async () => {
      const shapes = [
        [{ name: 'name' }, { name: 'price', type: 'number', description: 'the price' }],
        { name: { description: 'product name' }, price: { description: 'the price', type: 'number' } },
        { name: 'product name', price: 'the price' },
      ];
      for (const attributes of shapes) {
        s.model.script([{ json: { records: [{ name: 'Alpha Book', price: '$1,299.00' }] } }]);
        const res = await s.api('POST', '/v1/extractor/extract', { url: `${s.site.url}/laptops`, attributes });
        expect(res.status, res.text).to.equal(200);
        expect(res.body.data[0].name).to.equal('Alpha Book');
      }
      const keys = s.model.chatRequests().map((r) => Object.keys(sentSchema(r).properties.records.items.properties));
      expect(keys).to.deep.equal([
        ['name', 'price'],
        ['name', 'price'],
        ['name', 'price'],
      ]);
    });

    it('extracts with a prompt only (free-form records)', async () => {
      s.model.script([{ json: { records: [{ cheapest: 'Beta Pad' }] } }]);
      const res = await s.api('POST', '/v1/extract', { url: `${s.site.url}/laptops`, prompt: 'Which laptop is cheapest?', attributes: null });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data).to.deep.equal([{ cheapest: 'Beta Pad' }]);
      expect(userContent(s.model.chatRequests()[0])).to.contain('Which laptop is cheapest?');
    });

    it('parses supplied HTML without fetching anything', async () => {
      const before = s.site.requests.length;
      s.model.script([{ json: productAnswer('https://shop.test') }]);
      const res = await s.api('POST', '/v1/parse', { content: productsPage(), url: 'https://shop.test/laptops', attributes: PRODUCT_ATTRIBUTES });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data[0]).to.include({ name: 'Alpha Book', price: 1299, image: 'https://shop.test/img/alpha.jpg' });
      expect(s.site.requests.length).to.equal(before);
      // A link the model copies as it read it (from the site's root) comes back absolute, and grounded.
      s.model.script([{ json: { records: [{ name: 'Beta Pad', price: '$899.50', image: '/img/beta.jpg', in_stock: 'Out of stock', url: '/p/beta' }] } }]);
      const rel = await s.api('POST', '/v1/parse?details=true', {
        content: productsPage(),
        url: 'https://shop.test/laptops',
        attributes: PRODUCT_ATTRIBUTES,
        provenance: true,
      });
      expect(rel.status, rel.text).to.equal(200);
      const { _provenance: prov, ...beta } = rel.body.data[0];
      expect(beta).to.include({ url: 'https://shop.test/p/beta', image: 'https://shop.test/img/beta.jpg' });
      const text: string = rel.body.details.pages[0].model_input.text;
      expect(prov.url).to.include({ grounding: 'normalised', quote: '/p/beta' });
      expect(prov.url.transform).to.deep.equal(['url']);
      expect(text.slice(prov.url.span[0], prov.url.span[1])).to.equal('/p/beta');
    });
  });
}

describe('extract API: pages, chunks, pagination, cookies, proxy, modes', () => {
  let s: Stack;
  let proxy: ForwardProxy;
  before(async () => {
    proxy = await startForwardProxy();
    s = await startStack({ config: { llm: { contextWindow: 1600 }, network: { allowNetworks: ['127.0.0.0/8'], proxies: { Germany: proxy.url } } } });
    s.site.page('/laptops', productsPage());
    // A long page: 60 items with descriptions, several times the model's context.
    const long = Array.from(
      { length: 60 },
      (_, i) =>
        `<div class="item"><h3>Item ${i + 1}</h3><p>${`Product ${i + 1} is a sturdy and reliable choice, model ${i + 1}. `.repeat(6)}</p><span>${i + 1}.00 EUR</span></div>`,
    ).join('\n');
    s.site.page('/long', `<html><body><h1>Catalogue</h1>${long}</body></html>`);
    s.site.page('/list', ''); // replaced per page below
    s.site.route('/list', (_req, res, url) => {
      const page = Number(url.searchParams.get('page') ?? '1');
      const items = [1, 2, 3].map((n) => (page - 1) * 3 + n);
      const next = page === 1 ? `<link rel="next" href="/list?page=2">` : page === 2 ? `<a class="next" href="/list?page=3">Next »</a>` : '';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(listPage(items, next));
    });
    s.site.route('/echo-cookies', (req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<html><body><p>cookies: ${String(req.headers.cookie ?? '').replace(/</g, '')}</p></body></html>`);
    });
    s.site.route('/image.png', (_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
    });
  });
  after(async () => {
    await s.close();
    await proxy.close();
  });
  beforeEach(() => s.model.reset());

  it('splits a page longer than the context into chunks that fit, and merges their records in order', async () => {
    s.model.script((req) => answerItems(req, userContent(req)));
    const res = await s.api('POST', '/v1/extract', { url: `${s.site.url}/long`, attributes: [{ name: 'name' }, { name: 'price', type: 'string' }] });
    expect(res.status, res.text).to.equal(200);
    const calls = s.model.chatRequests();
    expect(calls.length).to.be.greaterThan(2);
    for (const c of calls) expect(countTokens(userContent(c))).to.be.below(1600);
    expect(res.body.data.map((r: { name: string }) => r.name)).to.deep.equal(Array.from({ length: 60 }, (_, i) => `Item ${i + 1}`));
  });

  it('follows pagination (rel=next, then a "Next »" link) over 3 pages, each fetched once', async () => {
    s.model.script((req) => answerItems(req, userContent(req)));
    const before = s.site.requests.filter((r) => r.path.startsWith('/list')).length;
    const res = await s.api('POST', '/v1/extract', {
      url: `${s.site.url}/list?page=1`,
      attributes: [{ name: 'name' }, { name: 'price' }],
      enable_pagination: true,
      max_pages: 5,
    });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.data.map((r: { name: string }) => r.name)).to.deep.equal(Array.from({ length: 9 }, (_, i) => `Item ${i + 1}`));
    const fetched = s.site.requests
      .filter((r) => r.path.startsWith('/list'))
      .slice(before)
      .map((r) => r.path);
    expect(fetched).to.deep.equal(['/list?page=1', '/list?page=2', '/list?page=3']);
    // max_pages caps it.
    const two = await s.api('POST', '/v1/extract', { url: `${s.site.url}/list?page=1`, attributes: [{ name: 'name' }], enable_pagination: true, max_pages: 2 });
    expect(two.body.data).to.have.length(6);
  });

  it('sends the cookies of both accepted shapes', async () => {
    s.model.script((req) => ({ json: { records: [{ cookies: /cookies: ([^\n]*)/.exec(userContent(req))?.[1] ?? '' }] } }));
    const list = await s.api('POST', '/v1/extract', {
      url: `${s.site.url}/echo-cookies`,
      prompt: 'the cookies line',
      cookies: [
        { name: 'sid', value: 'abc123' },
        { name: 'theme', value: 'dark', path: '/' },
      ],
    });
    expect(list.status, list.text).to.equal(200);
    expect(s.site.requests.at(-1)!.headers.cookie).to.equal('sid=abc123; theme=dark');
    const flat = await s.api('POST', '/v1/extract', {
      url: `${s.site.url}/echo-cookies`,
      prompt: 'the cookies line',
      cookies: { session: 'xyz', sameSite: 'None' },
    });
    expect(flat.status, flat.text).to.equal(200);
    expect(s.site.requests.at(-1)!.headers.cookie).to.equal('session=xyz');
  });

  it('fetches through the proxy of the requested proxy_country', async () => {
    s.model.script([{ json: productAnswer(s.site.url) }]);
    const res = await s.api('POST', '/v1/extract', { url: `${s.site.url}/laptops`, attributes: PRODUCT_ATTRIBUTES, proxy_country: 'Germany' });
    expect(res.status, res.text).to.equal(200);
    expect(proxy.requests.map((r) => r.target)).to.include(`${s.site.url}/laptops`);
  });

  it('shows hidden text and attributes to the model in precision mode only', async () => {
    s.model.script([{ json: productAnswer(s.site.url) }, { json: productAnswer(s.site.url) }]);
    await s.api('POST', '/v1/extract', { url: `${s.site.url}/laptops`, attributes: PRODUCT_ATTRIBUTES, mode: 'fast' });
    await s.api('POST', '/v1/extract', { url: `${s.site.url}/laptops`, attributes: PRODUCT_ATTRIBUTES, mode: 'precision' });
    const [standard, precision] = s.model.chatRequests().map(userContent);
    expect(standard).to.not.contain('HIDDEN_TEXT_TOKEN');
    expect(precision).to.contain('HIDDEN_TEXT_TOKEN');
    expect(precision.length).to.be.greaterThan(standard.length);
  });

  it('code mode: the model writes a recipe on the first page, later pages are extracted by the recipe alone', async () => {
    s.model.script([
      {
        json: {
          container: { selector: 'li.item' },
          fields: {
            name: f('a', 'text'),
            price: f('.price', 'text', { transforms: [t('number')] }),
            link: f('a', 'attr', { attr: 'href', transforms: [t('absolute_url')] }),
          },
          pagination: null,
        },
      },
    ]);
    const res = await s.api('POST', '/v1/extract', {
      url: `${s.site.url}/list?page=1`,
      attributes: [{ name: 'name' }, { name: 'price', type: 'number' }, { name: 'link', type: 'string' }],
      mode: 'code',
      enable_pagination: true,
      max_pages: 3,
    });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.data).to.have.length(9);
    expect(res.body.data[8]).to.deep.equal({ name: 'Item 9', price: 9, link: `${s.site.url}/item/9` });
    expect(s.model.chatRequests()).to.have.length(1); // one recipe, three pages
    const schema = sentSchema(s.model.chatRequests()[0]);
    expect(schema.required).to.include.members(['container', 'fields']);
  });

  it('answers 422 for bad input, one entry per problem', async () => {
    const res = await s.api('POST', '/v1/extract', { attributes: [], proxy_country: 'Atlantis', max_pages: 1000 });
    expect(res.status).to.equal(422);
    const locs = res.body.detail.map((d: { loc: string[] }) => d.loc.join('.'));
    expect(locs).to.include('body.url');
    const res2 = await s.api('POST', '/v1/extract', { url: 'ftp://x/', proxy_country: 'Atlantis', max_pages: 1000 });
    const locs2 = res2.body.detail.map((d: { loc: string[] }) => d.loc.join('.'));
    expect(locs2).to.include.members(['body.url', 'body.attributes', 'body.proxy_country', 'body.max_pages']);
    expect(res2.body.detail.find((d: { loc: string[] }) => d.loc[1] === 'proxy_country').msg).to.contain('/v1/proxy-countries');
    const shape = await s.api('POST', '/v1/extract', { url: `${s.site.url}/laptops`, attributes: [{ name: 'x', type: 'colour' }] });
    expect(shape.status).to.equal(422);
    expect(s.model.chatRequests()).to.have.length(0);
  });

  it('gives clear errors for unreachable, blocked and non-HTML pages, and for a model that answers garbage', async () => {
    const missing = await s.api('POST', '/v1/extract', { url: `${s.site.url}/nope`, prompt: 'x' });
    expect(missing.status).to.equal(502);
    expect(missing.body).to.include({ code: 'FETCH_FAILED' });
    expect(missing.body.detail).to.contain('HTTP 404');
    const blocked = await s.api('POST', '/v1/extract', { url: 'http://169.254.169.254/latest/meta-data', prompt: 'x' });
    expect(blocked.status).to.equal(400);
    expect(blocked.body.code).to.equal('URL_BLOCKED');
    expect(blocked.body.detail).to.contain('169.254.169.254 is a link-local address');
    const image = await s.api('POST', '/v1/extract', { url: `${s.site.url}/image.png`, prompt: 'x' });
    expect(image.status).to.equal(422);
    expect(image.body.code).to.equal('UNSUPPORTED_CONTENT');
    s.model.script([{ text: 'Sure! Here are the laptops: Alpha, Beta' }, { text: 'I cannot produce JSON' }]);
    const garbage = await s.api('POST', '/v1/extract', { url: `${s.site.url}/laptops`, attributes: PRODUCT_ATTRIBUTES });
    expect(garbage.status).to.equal(502);
    expect(garbage.body.code).to.equal('MODEL_BAD_OUTPUT');
    s.model.script([{ error: 500 }, { error: 503 }]);
    const down = await s.api('POST', '/v1/extract', { url: `${s.site.url}/laptops`, attributes: PRODUCT_ATTRIBUTES });
    expect(down.status).to.equal(503);
    expect(down.body.code).to.equal('MODEL_UNAVAILABLE');
    expect(down.text).to.not.match(/at .*\.ts:\d+/);
  });

  it('returns the page as markdown: main content, absolute links and images, no scripts', async () => {
    const res = await s.api('POST', '/v1/extract_markdown', { url: `${s.site.url}/laptops` });
    expect(res.status, res.text).to.equal(200);
    const md: string = res.body.data;
    expect(md).to.contain('# Laptops');
    expect(md).to.contain(`${s.site.url}/img/alpha.jpg`);
    expect(md).to.contain(`${s.site.url}/p/beta`);
    expect(md).to.not.contain('SECRET_SCRIPT_TOKEN');
    expect(md.indexOf('Laptops')).to.be.below(md.indexOf('FOOTER_TEXT_TOKEN') === -1 ? Infinity : md.indexOf('FOOTER_TEXT_TOKEN'));
    expect(s.model.chatRequests()).to.have.length(0);
  });

  it('returns only the main content with only_main_content: true (a Gleaner extension), 422 for a non-boolean', async () => {
    const res = await s.api('POST', '/v1/extract_markdown', { url: `${s.site.url}/laptops`, only_main_content: true });
    expect(res.status, res.text).to.equal(200);
    const md: string = res.body.data;
    for (const kept of ['# Laptops', 'Alpha Book', 'Beta Pad', 'Gamma Pro', '$2,450.00', `${s.site.url}/p/gamma`]) expect(md).to.contain(kept);
    for (const dropped of ['FOOTER_TEXT_TOKEN', 'About us', 'COOKIE_BANNER_TEXT', 'HIDDEN_TEXT_TOKEN', 'SECRET_SCRIPT_TOKEN'])
      expect(md).to.not.contain(dropped);
    // false is the default: the same answer as without the field, as before it existed.
    const whole = await s.api('POST', '/v1/extract_markdown', { url: `${s.site.url}/laptops`, only_main_content: false });
    const plain = await s.api('POST', '/v1/extract_markdown', { url: `${s.site.url}/laptops` });
    expect(whole.body.data).to.equal(plain.body.data);
    const bad = await s.api('POST', '/v1/extract_markdown', { url: `${s.site.url}/laptops`, only_main_content: 'yes' });
    expect(bad.status).to.equal(422);
    expect(bad.body.detail[0].loc).to.deep.equal(['body', 'only_main_content']);
  });

  it('returns an empty list with a message when nothing is found', async () => {
    // Nothing on the plain-HTTP page, then nothing on the browser-rendered one either.
    s.model.script([{ json: { records: [] } }, { json: { records: [] } }]);
    const res = await s.api('POST', '/v1/extract', { url: `${s.site.url}/laptops`, attributes: [{ name: 'author' }] });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.data).to.deep.equal([]);
    expect(res.body.message).to.equal('No records found on the page: the page may not contain what was asked.');
    expect(s.model.chatRequests()).to.have.length(2);
  });
});
