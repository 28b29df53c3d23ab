// Provenance and the grounding check (Gleaner extensions, docs/api.md "Provenance and grounding"):
// spans point at the exact text the model read, a model inventing values is caught every time
// while the values the pages hold are never flagged (the benchmark corpus, standard, precision and
// code modes), and the policies keep / flag / drop change the body as documented.
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { startStack, sentSchema, userContent, type Stack } from './support/stack.ts';
import { BOOK_ATTRS, openBookshop, shelf } from './support/books.ts';
import { request } from './support/http.ts';
import { recipeField, recipeTransform } from './support/recipe-answers.ts';
import { corpusModel, trustCorpus, type TrustPage } from './support/trust-corpus.ts';

const sha = (s: string | ArrayBuffer) =>
  `sha256:${createHash('sha256')
    .update(typeof s === 'string' ? s : Buffer.from(s))
    .digest('hex')}`;

function metric(text: string, name: string, labels: Record<string, string>): number {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) return Number(line.split(' ').at(-1));
  }
  return 0;
}

describe('provenance and grounding over HTTP', function () {
  this.timeout(120_000);
  let s: Stack;
  let shelfUrl: (n: number) => string;
  before(async () => {
    s = await startStack({ worker: false });
    shelfUrl = openBookshop(s);
  });
  after(() => s?.close());

  const lastUsage = async () => (await s.engine.db.query(`SELECT operation, unsupported_values, credits FROM usage_events ORDER BY id DESC LIMIT 1`)).rows[0];

  it('leaves the body as the interface has it when no new field is given', async () => {
    const res = await s.api('POST', '/v1/extract', { url: shelfUrl(1), attributes: BOOK_ATTRS });
    expect(res.status, res.text).to.equal(200);
    expect(res.body).to.deep.equal({ data: shelf(1) });
  });

  it('gives each value the span of the text the model read, its quote, the page URL and content hash', async () => {
    const res = await s.api('POST', '/v1/extract?details=true', { url: shelfUrl(2), attributes: BOOK_ATTRS, provenance: true });
    expect(res.status, res.text).to.equal(200);
    const text: string = res.body.details.pages[0].model_input.text;
    const served = await (await fetch(shelfUrl(2))).arrayBuffer();
    expect(res.body.data.map(({ _provenance, ...r }: any) => r)).to.deep.equal(shelf(2));
    for (const record of res.body.data) {
      const p = record._provenance;
      expect(Object.keys(p)).to.deep.equal(['title', 'pages']);
      for (const f of Object.values<any>(p)) {
        expect(f).to.include({ url: shelfUrl(2), content_hash: sha(served), method: 'text' });
        expect(text.slice(f.span[0], f.span[1])).to.equal(f.quote);
      }
      expect(p.title).to.include({ grounding: 'verbatim', quote: record.title });
      expect(p.title.transform).to.deep.equal([]);
      // "201 pages" on the page: the number is the quote, read as a number.
      expect(p.pages).to.include({ grounding: 'verbatim', quote: String(record.pages) });
      expect(p.pages.transform).to.deep.equal(['number']);
    }
  });

  it('in code mode names the recipe rule that read each value', async () => {
    const res = await s.api('POST', '/v1/extract', { url: shelfUrl(3), attributes: BOOK_ATTRS, mode: 'code', provenance: true });
    expect(res.status, res.text).to.equal(200);
    const p = res.body.data[0]._provenance;
    expect(p.title).to.include({ method: 'selector', grounding: 'verbatim' });
    expect(p.title.selector).to.deep.equal({ container: 'li.book', selector: '.t', read: 'text', fallback: 0 });
    expect(p.pages.transform).to.deep.equal(['number']);
  });

  it('parse: provenance of supplied content hashes the content', async () => {
    const content = '<ul><li class="book"><span class="t">Book 9.1</span> <span class="p">901 pages</span></li></ul>';
    const res = await s.api('POST', '/v1/parse', { content, attributes: BOOK_ATTRS, provenance: true });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.data[0]._provenance.title).to.include({ grounding: 'verbatim', quote: 'Book 9.1', url: 'https://content.invalid/' });
    expect(res.body.data[0]._provenance.title.content_hash).to.match(/^sha256:[0-9a-f]{64}$/);
  });

  describe('a model that invents a value', () => {
    // The shelf's books, plus one the page does not have.
    before(() =>
      s.model.script((req) => {
        const records: Array<Record<string, unknown>> = [...userContent(req).matchAll(/Book (\d+)\.(\d)/g)].map((m) => ({
          title: `Book ${m[1]}.${m[2]}`,
          pages: `${Number(m[1]) * 100 + Number(m[2])}`,
        }));
        records[0].pages = '4242';
        return { json: { records }, usage: { inputTokens: 200, outputTokens: 40 } };
      }),
    );

    it('keep (default): the value stays, its provenance says not_found, usage counts it', async () => {
      const res = await s.api('POST', '/v1/extract', { url: shelfUrl(4), attributes: BOOK_ATTRS, provenance: true });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data[0].pages).to.equal(4242);
      expect(res.body.data[0]._provenance.pages).to.include({ grounding: 'not_found', method: 'text' });
      expect(res.body.data[0]._provenance.pages).not.to.have.property('span');
      expect(res.body.data[1]._provenance.pages.grounding).to.not.equal('not_found');
      expect(res.body).not.to.have.property('warnings');
      expect(await lastUsage()).to.include({ operation: 'extract', unsupported_values: 1 });
    });

    it('flag: the body lists it in warnings', async () => {
      const res = await s.api('POST', '/v1/extract', { url: shelfUrl(4), attributes: BOOK_ATTRS, grounding: 'flag' });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data[0].pages).to.equal(4242);
      expect(res.body.warnings).to.have.length(1);
      expect(res.body.warnings[0]).to.include({ record: 0, field: 'pages', value: 4242, url: shelfUrl(4), action: 'flagged' });
    });

    it("drop: the field is null and listed; the owner's setting applies when the request does not say", async () => {
      const put = await s.api('PUT', '/v1/settings', { grounding_policy: 'drop' });
      expect(put.status, put.text).to.equal(200);
      expect(put.body.grounding_policy).to.equal('drop');
      try {
        const res = await s.api('POST', '/v1/extract', { url: shelfUrl(4), attributes: BOOK_ATTRS });
        expect(res.status, res.text).to.equal(200);
        expect(res.body.data[0]).to.deep.equal({ title: 'Book 4.1', pages: null });
        expect(res.body.warnings[0]).to.include({ record: 0, field: 'pages', value: 4242, action: 'dropped' });
        const kept = await s.api('POST', '/v1/extract', { url: shelfUrl(4), attributes: BOOK_ATTRS, grounding: 'keep' });
        expect(kept.body).to.deep.equal({ data: [{ title: 'Book 4.1', pages: 4242 }, ...shelf(4).slice(1)] });
      } finally {
        await s.api('PUT', '/v1/settings', { grounding_policy: null });
      }
    });

    it('is counted on /metrics', async () => {
      const text = (await request(s.url, 'GET', '/metrics')).text;
      expect(metric(text, 'gleaner_grounded_values_total', { operation: 'extract', outcome: 'not_found' })).to.be.at.least(3);
      expect(metric(text, 'gleaner_grounded_values_total', { operation: 'extract', outcome: 'verbatim' })).to.be.greaterThan(0);
    });

    it('refuses a grounding value it does not know, and a _provenance attribute with provenance on (422)', async () => {
      const bad = await s.api('POST', '/v1/extract', { url: shelfUrl(4), attributes: BOOK_ATTRS, grounding: 'ignore' });
      expect(bad.status).to.equal(422);
      expect(bad.body.detail[0].loc).to.deep.equal(['body', 'grounding']);
      const clash = await s.api('POST', '/v1/extract', { url: shelfUrl(4), attributes: [{ name: '_provenance' }], provenance: true });
      expect(clash.status).to.equal(422);
      expect(clash.body.detail[0].loc).to.deep.equal(['body', 'attributes']);
    });
  });

  describe('over the corpus pages', () => {
    let corpus: TrustPage[];
    before(() => {
      corpus = trustCorpus();
    });

    const invented = (tp: TrustPage) => Object.values(tp.invented).map((v) => JSON.stringify(v));

    for (const mode of ['standard', 'precision'] as const) {
      it(`${mode}: every invented value is flagged, no value the page holds is`, async function () {
        this.timeout(300_000);
        s.model.script(corpusModel(corpus, { invent: true }));
        let caught = 0;
        let inventedTotal = 0;
        let checked = 0;
        for (const tp of corpus) {
          for (const v of Object.values(tp.invented)) expect(tp.page.html, `${tp.page.name}: ${v}`).not.to.contain(String(v));
          const res = await s.api('POST', '/v1/parse?details=true', {
            content: tp.page.html,
            url: tp.url,
            attributes: tp.attributes,
            mode,
            grounding: 'flag',
            provenance: true,
          });
          expect(res.status, `${tp.page.name}: ${res.text.slice(0, 300)}`).to.equal(200);
          // Every span is exact in the text the model read.
          const text: string = res.body.details.pages[0].model_input.text;
          for (const r of res.body.data)
            for (const p of Object.values<any>(r._provenance))
              for (const one of [p, ...(p.items ?? [])])
                if (one.span) expect(one.quote.replace(/…$/, '')).to.equal(text.slice(one.span[0], one.span[1]).slice(0, 300));
          const flagged = res.body.warnings.map((w: any) => JSON.stringify(w.value));
          expect(flagged, `${tp.page.name} flagged`).to.have.members(invented(tp));
          caught += flagged.length;
          inventedTotal += invented(tp).length;
          for (const r of res.body.data) for (const p of Object.values<any>(r._provenance)) if (p.grounding && p.grounding !== 'exempt') checked++;
        }
        expect(caught).to.equal(inventedTotal);
        expect(checked).to.be.greaterThan(1000);
      });
    }

    it('drop: the invented records are gone from data, the real ones all there', async function () {
      this.timeout(300_000);
      s.model.script(corpusModel(corpus, { invent: true }));
      for (const tp of corpus.filter((p) => p.page.kind !== 'big')) {
        const res = await s.api('POST', '/v1/parse', { content: tp.page.html, url: tp.url, attributes: tp.attributes, grounding: 'drop' });
        expect(res.status, res.text.slice(0, 300)).to.equal(200);
        expect(res.body.data, tp.page.name).to.have.length(tp.records.length);
        expect(
          res.body.warnings.every((w: any) => w.record === null && w.action === 'dropped'),
          tp.page.name,
        ).to.equal(true);
      }
    });

    it('code mode: the listings values are read by the recipe selectors, none unsupported', async function () {
      this.timeout(300_000);
      const recipe = {
        container: { selector: 'li.product-card' },
        fields: {
          name: recipeField('h3 a', 'text'),
          price: recipeField('p.price', 'text', { transforms: [recipeTransform('number')] }),
          url: recipeField('h3 a', 'attr', { attr: 'href' }),
          image: recipeField('img', 'attr', { attr: 'data-src' }),
        },
        pagination: null,
      };
      s.model.script((req) => (sentSchema(req)?.properties?.container ? { json: recipe } : { json: { records: [] } }));
      for (const tp of corpus.filter((p) => p.page.kind === 'listing')) {
        const res = await s.api('POST', '/v1/parse', {
          content: tp.page.html,
          url: tp.url,
          attributes: tp.attributes,
          mode: 'code',
          provenance: true,
          grounding: 'flag',
        });
        expect(res.status, res.text.slice(0, 300)).to.equal(200);
        expect(res.body.data).to.have.length(tp.records.length);
        expect(res.body.warnings).to.deep.equal([]);
        for (const r of res.body.data) expect(r._provenance.name).to.include({ method: 'selector' });
      }
    });
  });
});
