import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { createModelClient, GleanerError } from '@gleaner/core/internal';
import type { Attribute, ExtractedRecord } from '@gleaner/core/internal';
import { createOpenAiProvider, qualifiesForStrict } from '@gleaner/llm-openai';
import {
  brittleSelectors,
  compareRecipeOutput,
  executeRecipe,
  generateRecipe,
  pageSkeleton,
  recipeAnswerSchema,
  runRecipe,
  validateRecipe,
} from '../src/recipes/index.ts';
import type { Recipe } from '../src/recipes/index.ts';
import { startModelServer } from '@gleaner/testing';
import type { ModelServer } from '@gleaner/testing';

const fixture = (name: string): string => readFileSync(new URL(`./fixtures/recipes/${name}`, import.meta.url), 'utf8');
const LISTING = fixture('listing.html');
const PRODUCT = fixture('product.html');
const LISTING_URL = 'https://shop.example.com/catalog/kettles';
const attr = (name: string, type: Attribute['type'], description = ''): Attribute => ({ name, type, description });
const ATTRS = [attr('name', 'string'), attr('price', 'number'), attr('url', 'string'), attr('image', 'image'), attr('in_stock', 'bool'), attr('tags', 'list')];

const LISTING_RECIPE: Recipe = {
  version: 1,
  container: { selector: 'li.product-card' },
  fields: {
    name: { selector: '.product-title', read: 'text' },
    price: { selector: '.price', read: 'text' },
    url: { selector: 'a.product-link', read: 'attr', attr: 'href', transforms: [{ op: 'absolute_url' }, { op: 'strip_tracking' }] },
    image: { selector: 'img', read: 'attr', attr: 'data-src', fallback: { selector: 'img', read: 'attr', attr: 'src' } },
    in_stock: { selector: '.stock', read: 'text' },
    tags: { selector: '.tags li', read: 'text', all: true },
  },
  pagination: { next: { selector: 'a[rel=next]' } },
};

const EXPECTED: ExtractedRecord[] = [
  {
    name: 'Blue Kettle',
    price: 1299,
    url: 'https://shop.example.com/p/blue-kettle?color=blue',
    image: 'https://shop.example.com/img/k-100.jpg',
    in_stock: true,
    tags: ['kitchen', 'steel'],
  },
  {
    name: 'Red Kettle',
    price: 49.5,
    url: 'https://shop.example.com/p/red-kettle',
    image: 'https://shop.example.com/img/k-200.jpg',
    in_stock: false,
    tags: ['kitchen'],
  },
  {
    name: 'Glass & Steel Kettle',
    price: 2450,
    url: 'https://shop.example.com/p/glass-kettle',
    image: 'https://cdn.example.com/k-300.jpg',
    in_stock: true,
    tags: [],
  },
];

function invalid(recipe: unknown): GleanerError {
  try {
    validateRecipe(recipe);
  } catch (err) {
    expect(err).to.be.instanceOf(GleanerError);
    expect((err as GleanerError).code).to.equal('VALIDATION_FAILED');
    return err as GleanerError;
  }
  throw new Error('expected the recipe to be refused');
}

describe('recipes: executor', () => {
  it('extracts a listing: number prices, absolute untracked links, lazy images, stock flags, tag lists', () => {
    const run = runRecipe(LISTING_RECIPE, LISTING, { url: LISTING_URL, attributes: ATTRS });
    expect(run.records).to.deep.equal(EXPECTED);
    expect(run.nextPageUrl).to.equal('https://shop.example.com/catalog/kettles?page=2');
  });

  it('skips container matches that carry nothing (an ad slot among the cards)', () => {
    const recipe = { ...LISTING_RECIPE, container: { selector: '.product-grid > li' } };
    const run = runRecipe(recipe, LISTING, { url: LISTING_URL, attributes: ATTRS });
    expect(run.containerMatches).to.equal(4);
    expect(run.records.map((r) => r.name)).to.deep.equal(['Blue Kettle', 'Red Kettle', 'Glass & Steel Kettle']);
  });

  it('without attributes, returns one key per field with the values as read', () => {
    const [first] = executeRecipe(LISTING_RECIPE, LISTING, { url: LISTING_URL });
    expect(first).to.deep.include({ name: 'Blue Kettle', price: '$1,299.00', in_stock: 'In stock', image: 'https://shop.example.com/img/k-100.jpg' }); // src resolved as the model's page shows it
  });

  it('reads JSON-LD: @graph, [@type=...] filters, arrays and lists', () => {
    const recipe = {
      version: 1,
      container: null,
      fields: {
        name: { read: 'jsonld', path: '[@type=Product].name' },
        site: { read: 'jsonld', path: '@graph[0].name' },
        price: { read: 'jsonld', path: '[@type=Product].offers.price' },
        images: { read: 'jsonld', path: '[@type=Product].image', all: true },
        brand: { read: 'jsonld', path: '[@type=Product].brand.name' },
        reviews: { read: 'jsonld', path: '[@type=Product].aggregateRating.reviewCount' },
      },
    };
    const [record] = executeRecipe(recipe, PRODUCT, {
      url: 'https://shop.example.com/p/blue-kettle',
      attributes: [
        attr('name', 'string'),
        attr('site', 'string'),
        attr('price', 'number'),
        attr('images', 'list'),
        attr('brand', 'string'),
        attr('reviews', 'integer'),
      ],
    });
    expect(record).to.deep.equal({
      name: 'Blue Kettle',
      site: 'Acme Store',
      price: 1299,
      images: ['https://cdn.example.com/k-100-a.jpg', 'https://cdn.example.com/k-100-b.jpg'],
      brand: 'Acme',
      reviews: 12,
    });
  });

  it('makes one record per JSON-LD item with a JSON-LD container', () => {
    const recipe = {
      version: 1,
      container: { jsonld: '[@type=ItemList].itemListElement[*].item' },
      fields: { name: { read: 'jsonld', path: 'name' }, price: { read: 'jsonld', path: 'offers.price' }, shop: { read: 'const', value: 'Acme' } },
    };
    const records = executeRecipe(recipe, LISTING, { url: LISTING_URL, attributes: [attr('name', 'string'), attr('price', 'number'), attr('shop', 'string')] });
    expect(records).to.deep.equal([
      { name: 'Blue Kettle', price: 1299, shop: 'Acme' },
      { name: 'Red Kettle', price: 49.5, shop: 'Acme' },
      { name: 'Glass Kettle', price: 2450, shop: 'Acme' },
    ]);
    expect(() => validateRecipe({ ...recipe, fields: { name: { selector: 'h2', read: 'text' } } })).to.throw(/JSON-LD container/);
  });

  it('runs a page-level recipe: meta, itemprop, <base href>, const, exists, html', () => {
    const recipe = {
      version: 1,
      container: null,
      fields: {
        title: { selector: 'h1[itemprop=name]', read: 'text' },
        og_image: { read: 'meta', name: 'og:image' },
        sku: { read: 'meta', name: 'sku' },
        image: { selector: '.gallery img', read: 'attr', attr: 'src' },
        price: { selector: '.price-box .amount', read: 'text' },
        on_sale: { selector: '.badge-sale', read: 'exists' },
        gift_wrap: { selector: '.gift-wrap', read: 'exists' },
        source: { read: 'const', value: 'acme' },
        description: { selector: '.description', read: 'html' },
      },
    };
    const [record] = executeRecipe(recipe, PRODUCT, {
      url: 'https://shop.example.com/p/blue-kettle',
      attributes: [
        attr('title', 'string'),
        attr('og_image', 'image'),
        attr('sku', 'string'),
        attr('image', 'image'),
        attr('price', 'number'),
        attr('on_sale', 'bool'),
        attr('gift_wrap', 'bool'),
        attr('source', 'string'),
        attr('description', 'string'),
      ],
    });
    expect(record).to.deep.equal({
      title: 'Blue Kettle',
      og_image: 'https://cdn.example.com/og/k-100.jpg',
      sku: 'K-100',
      image: 'https://shop.example.com/catalog/img/k-100-large.jpg',
      price: 1299,
      on_sale: true,
      gift_wrap: false,
      source: 'acme',
      description: '<p>A <b>stainless</b> steel kettle.</p><p>Boils fast.</p>',
    });
  });

  it('applies transforms: regex, replace, split, join, case, first/last, prefix/suffix, integer', () => {
    const field = (selector: string, transforms: unknown[], extra = {}) => ({ selector, read: 'text', transforms, ...extra });
    const recipe = {
      version: 1,
      container: null,
      fields: {
        capacity: field('.specs dd', [{ op: 'regex', pattern: '([\\d.]+)\\s*l', flags: 'i' }, 'number']),
        materials: field('.specs dd', ['last', { op: 'split', separator: ',' }], { all: true }),
        materials_text: field('.specs dd', ['last', { op: 'split', separator: ',' }, { op: 'join', separator: ' / ' }, 'uppercase'], { all: true }),
        price_text: field('.amount', [
          { op: 'replace', pattern: '\\s*€', with: '' },
          { op: 'prefix', value: 'EUR ' },
          { op: 'suffix', value: '!' },
        ]),
        first_spec: field('.specs dt', ['first', 'lowercase'], { all: true }),
        cents: field('.amount', [{ op: 'replace', pattern: '[.,]', with: '' }, 'integer']),
      },
    };
    const [record] = executeRecipe(recipe, PRODUCT, { url: 'https://shop.example.com/p/blue-kettle' });
    expect(record).to.deep.equal({
      capacity: 1.7,
      materials: ['steel', 'glass', 'plastic'],
      materials_text: 'STEEL / GLASS / PLASTIC',
      price_text: 'EUR 1.299,00!',
      first_spec: 'capacity',
      cents: 129900,
    });
  });

  // Its speed is measured by `node test/bench/run.ts trust` (a run item's recipe execution), not asserted here.
  it('runs a 50-card listing: one record a card, the ad slot left out', () => {
    const card = LISTING.slice(LISTING.indexOf('<li class="product-card" data-sku="K-100">'), LISTING.indexOf('<li class="ad-slot">'));
    const big = LISTING.replace('<ul class="product-grid">', `<ul class="product-grid">${card.repeat(47)}`);
    const records = executeRecipe(LISTING_RECIPE, big, { url: LISTING_URL, attributes: ATTRS });
    expect(records).to.have.length(50);
    expect(records.filter((r) => r.name === records[0].name)).to.have.length(48);
  });

  it('accepts model-style answers (null for unused keys) and bare transform names', () => {
    const recipe = validateRecipe({
      version: 1,
      container: { selector: 'li' },
      pagination: null,
      fields: { name: { selector: null, read: 'text', attr: null, all: false, transforms: ['trim'], fallback: null } },
    });
    expect(recipe).to.deep.equal({ version: 1, container: { selector: 'li' }, fields: { name: { read: 'text', all: false, transforms: [{ op: 'trim' }] } } });
  });

  it('refuses invalid recipes with the path and a clear message', () => {
    const base = (fields: unknown) => ({ version: 1, container: { selector: 'li' }, fields });
    const badSelector = invalid(base({ name: { selector: 'div[', read: 'text' } }));
    expect(badSelector.message).to.contain('/fields/name/selector').and.contain('not a valid CSS selector');
    expect(badSelector.details).to.deep.include({
      loc: ['recipe', 'fields', 'name', 'selector'],
      msg: badSelector.message.split('/fields/name/selector ')[1],
      type: 'value_error',
    });
    const unknownTransform = invalid(base({ name: { read: 'text', transforms: [{ op: 'eval' }] } }));
    expect(unknownTransform.message).to.contain('/fields/name/transforms/0/op').and.contain('trim').and.contain('"eval"');
    const catastrophic = invalid(base({ name: { read: 'text', transforms: [{ op: 'regex', pattern: '(a+)+$' }] } }));
    expect(catastrophic.message).to.contain('/fields/name/transforms/0/pattern').and.contain('nested quantifiers');
    expect(invalid(base({ n: { read: 'text', transforms: [{ op: 'regex', pattern: '(\\d+)\\s*(\\d+)' }] } })).message).to.contain('polynomially');
    expect(invalid(base({ n: { read: 'text', transforms: [{ op: 'regex', pattern: '(a)\\1' }] } })).message).to.contain('backreferences');
    expect(invalid(base({ n: { read: 'text', transforms: [{ op: 'regex', pattern: '[' }] } })).message).to.contain('invalid regular expression');
    expect(invalid(base({ n: { read: 'attr', selector: 'a' } })).message)
      .to.contain('/fields/n/attr')
      .and.contain('needs "attr"');
    expect(invalid(base({ n: { read: 'text', script: 'alert(1)' } })).message).to.contain('unknown key "script"');
    expect(invalid({ version: 1, container: { xpath: '//li' }, fields: { n: { read: 'text' } } }).message).to.contain('/container');
    expect(invalid(base({ n: { read: 'jsonld', path: 'offers..[' } })).message).to.contain('/fields/n/path');
    expect(() => executeRecipe(base({ name: { selector: 'div[', read: 'text' } }), LISTING, { url: LISTING_URL })).to.throw(
      GleanerError,
      /not a valid CSS selector/,
    );
  });

  it('flags positional selector chains, not anchored ones', () => {
    const recipe = validateRecipe({
      version: 1,
      container: { selector: 'main > div:nth-child(2) > ul > li:nth-of-type(n)' },
      fields: {
        name: { selector: 'td:nth-child(3)', read: 'text' },
        price: { selector: 'div > div > div > div > span', read: 'text' },
        sku: { selector: '[data-sku]', read: 'attr', attr: 'data-sku' },
      },
    });
    expect(brittleSelectors(recipe).map((w) => w.path)).to.deep.equal(['/container/selector', '/fields/price/selector']);
    expect(brittleSelectors(LISTING_RECIPE)).to.deep.equal([]);
  });
});

describe('recipes: skeleton and comparison', () => {
  it('shows a compact, bounded skeleton with repeated cards counted', () => {
    const card = LISTING.slice(LISTING.indexOf('<li class="product-card" data-sku="K-100">'), LISTING.indexOf('<li class="ad-slot">'));
    const big = LISTING.replace('<ul class="product-grid">', `<ul class="product-grid">${card.repeat(47)}`);
    const skeleton = pageSkeleton(big);
    expect(skeleton)
      .to.contain('li.product-card[data-sku="K-100"]')
      .and.contain('span.price "$1,299.00"')
      .and.contain('… 47 more li.product-card like the above');
    expect(skeleton).to.contain('JSON-LD block 1').and.not.contain('dataLayer').and.not.contain('display: grid');
    expect(skeleton.length).to.be.below(big.length / 4);
    expect(pageSkeleton(big, { maxChars: 1500 }).length).to.be.at.most(1500);
  });

  it('never counts the main content away as a repeat of its like-classed siblings', () => {
    const promo = (i: number) =>
      `<section class="row"><h2 class="promo-title">Offer ${i}</h2><a class="promo-link" href="/offers/${i}">See offer ${i}</a></section>`;
    const product =
      '<section class="row"><h1>Trail Kettle</h1><div class="buy"><span class="price" itemprop="price">$48.50</span><span class="sku">SKU TK-9</span></div>' +
      Array.from({ length: 40 }, (_, j) => `<p class="text">The kettle boils a litre of water in four minutes on a small stove, paragraph ${j}.</p>`).join('') +
      '</section>';
    const html = `<html><body><main>${promo(1)}${product}${[2, 3, 4, 5, 6].map(promo).join('')}</main></body></html>`;
    const skeleton = pageSkeleton(html, { maxChars: 1500 });
    expect(skeleton.length).to.be.at.most(1500);
    expect(skeleton).to.contain('span.price[itemprop="price"] "$48.50"').and.contain('span.sku "SKU TK-9"');
  });

  it('compares with normalised whitespace, case, number formats and URLs', () => {
    const actual = [
      { name: 'blue  KETTLE', price: '$1,299.00', url: '/p/blue-kettle?color=blue' },
      { name: 'Red Kettle', price: null, url: '/p/red' },
    ];
    const expected = [
      { name: 'Blue Kettle', price: 1299, url: 'https://shop.example.com/p/blue-kettle?color=blue' },
      { name: 'Red Kettle', price: 49.5, url: 'https://shop.example.com/p/red' },
      { name: 'Glass Kettle', price: 2450, url: null },
    ];
    const c = compareRecipeOutput(actual, expected, { baseUrl: LISTING_URL });
    expect(c).to.include({ expectedCount: 3, matchedRecords: 2, missingRecordCount: 1, ok: false });
    expect(c.fields.price).to.deep.include({ expected: 2, matched: 1, missing: 1 });
    expect(c.fields.name).to.deep.include({ matched: 2, wrong: 0 });
    expect(c.fields.url).to.deep.include({ matched: 2 });
    expect(c.score).to.be.closeTo(5 / 8, 1e-9);
    expect(compareRecipeOutput(EXPECTED, EXPECTED, { baseUrl: LISTING_URL }).ok).to.equal(true);
    expect(compareRecipeOutput([{ sku: 'K100', n: '1.5' }], [{ sku: 'k-100', n: '15' }], { baseUrl: LISTING_URL }).fields).to.deep.include({
      sku: { expected: 1, matched: 1, missing: 0, wrong: 0, examples: [] },
    });
  });
});

// ---- generator, through the real openai SDK against the scripted model server -------------------

type Rule = Record<string, unknown>;
const rule = (r: Rule): Rule => ({ selector: null, attr: null, name: null, path: null, value: null, all: false, transforms: [], fallback: null, ...r });
const fallbackRule = (r: Rule): Rule => {
  const { fallback: _none, ...rest } = rule(r);
  return rest;
};
const tf = (op: string, args: Rule = {}): Rule => ({ op, pattern: null, flags: null, group: null, with: null, separator: null, value: null, ...args });
const answer = (container: string, fields: Record<string, Rule>) => ({ json: { container: { selector: container }, fields, pagination: null } });
const GOOD_FIELDS = {
  name: rule({ selector: '.product-title', read: 'text' }),
  price: rule({ selector: '.price', read: 'text' }),
  url: rule({ selector: 'a.product-link', read: 'attr', attr: 'href', transforms: [tf('absolute_url'), tf('strip_tracking')] }),
  image: rule({ selector: 'img', read: 'attr', attr: 'data-src', fallback: fallbackRule({ selector: 'img', read: 'attr', attr: 'src' }) }),
  in_stock: rule({ selector: '.stock', read: 'text' }),
  tags: rule({ selector: '.tags li', read: 'text', all: true }),
};

describe('recipes: generator', function () {
  let server: ModelServer;
  const model = () =>
    createModelClient(createOpenAiProvider({ apiKey: 'sk-test', baseUrl: server.openaiBaseUrl, model: 'test-model' }), {
      timeoutMs: 5_000,
      maxRetries: 0,
      concurrency: 2,
    });
  const page = { html: LISTING, url: LISTING_URL };
  const messagesOf = (i: number): Array<{ role: string; content: string }> => server.chatRequests()[i].body.messages;

  before(async () => {
    server = await startModelServer();
  });
  beforeEach(() => server.reset());
  after(() => server.close());

  it('asks under a strict-mode recipe schema with the skeleton, then sends the differences back', async () => {
    server.push(answer('li.product-card', { ...GOOD_FIELDS, price: rule({ selector: '.cost', read: 'text' }) }), answer('li.product-card', GOOD_FIELDS));
    const result = await generateRecipe({ model: model(), page, attributes: ATTRS, prompt: 'all kettles', expected: EXPECTED });
    expect(result).to.deep.include({ rounds: 2, accepted: true, mismatches: [] });
    expect(result.records).to.deep.equal(EXPECTED);
    expect(result.recipe.fields.price).to.deep.equal({ selector: '.price', read: 'text', all: false, transforms: [] });
    expect(result.usage.modelCalls).to.equal(2);
    const [first, second] = server.chatRequests();
    expect(first.body.response_format.json_schema.strict).to.equal(true);
    expect(qualifiesForStrict(recipeAnswerSchema(ATTRS))).to.equal(true);
    expect(messagesOf(0)[0].content).to.contain('nth-child');
    expect(messagesOf(0)[1].content)
      .to.contain('li.product-card[data-sku="K-100"]')
      .and.contain('price (number)')
      .and.contain('Standard extraction found 3 records');
    const feedback = second.body.messages.at(-1).content as string;
    expect(feedback).to.contain('Field "price" is missing in 3 of 3').and.contain('expected 1299, got null');
    expect(second.body.messages.at(-2).role).to.equal('assistant');
  });

  it('sends positional selector chains back even when the data matches', async () => {
    const brittle = { ...GOOD_FIELDS, name: rule({ selector: 'h2:nth-child(2) > a:nth-child(1)', read: 'text' }) };
    server.push(answer('li.product-card', brittle), answer('li.product-card', GOOD_FIELDS));
    const result = await generateRecipe({ model: model(), page, attributes: ATTRS, expected: EXPECTED });
    expect(result).to.deep.include({ rounds: 2, accepted: true });
    expect(messagesOf(1).at(-1)!.content).to.contain('/fields/name/selector').and.contain('brittle').and.contain('nth-child');
  });

  it('returns the best recipe with its mismatches when the rounds run out', async () => {
    const worse = { ...GOOD_FIELDS, price: rule({ selector: '.cost', read: 'text' }), name: rule({ selector: '.nope', read: 'text' }) };
    const better = { ...GOOD_FIELDS, price: rule({ selector: '.cost', read: 'text' }) };
    server.push(answer('li.product-card', better), answer('li.product-card', worse));
    const result = await generateRecipe({ model: model(), page, attributes: ATTRS, expected: EXPECTED, maxRounds: 2 });
    expect(result).to.deep.include({ rounds: 2, accepted: false });
    expect(result.recipe.fields.name.selector).to.equal('.product-title');
    expect(result.mismatches.map((m) => `${m.kind}:${m.field}`)).to.deep.equal(['missing_field:price']);
    expect(result.comparison!.score).to.be.closeTo(14 / 17, 1e-9);
    expect(server.chatRequests()).to.have.length(2);
  });

  it('without expected records, accepts a recipe that finds records and retries one that finds none', async () => {
    server.push(answer('div.card', GOOD_FIELDS), answer('li.product-card', GOOD_FIELDS));
    const result = await generateRecipe({ model: model(), page, attributes: ATTRS, prompt: 'kettles' });
    expect(result).to.deep.include({ rounds: 2, accepted: true });
    expect(result.records).to.have.length(3);
    expect(messagesOf(1).at(-1)!.content).to.contain('found no records').and.contain('matches nothing');
  });

  it('sends validation errors back, and fails with MODEL_BAD_OUTPUT when no round gives a valid recipe', async () => {
    const broken = answer('li.product-card', { ...GOOD_FIELDS, name: rule({ selector: 'h2[', read: 'text' }) });
    server.push(broken, answer('li.product-card', GOOD_FIELDS));
    const fixed = await generateRecipe({ model: model(), page, attributes: ATTRS, expected: EXPECTED });
    expect(fixed).to.deep.include({ rounds: 2, accepted: true });
    expect(messagesOf(1).at(-1)!.content).to.contain('/fields/name/selector').and.contain('not a valid CSS selector');

    server.reset();
    server.push(broken, broken);
    try {
      await generateRecipe({ model: model(), page, attributes: ATTRS, maxRounds: 2 });
      expect.fail('expected MODEL_BAD_OUTPUT');
    } catch (err) {
      expect(err).to.be.instanceOf(GleanerError).and.include({ code: 'MODEL_BAD_OUTPUT' });
      expect((err as Error).message).to.contain('2 rounds');
    }
  });
});
