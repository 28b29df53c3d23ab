// Issue 16, item 5: a link field is the same value from a scraper run and from /v1/extract for the
// same page and attribute — absolute and tracking-free — because a recipe's href/src read resolves
// exactly as the page the model reads renders it.
import { expect } from 'chai';
import { startStack, sentSchema, userContent, type Stack } from './support/stack.ts';
import { buildScraper } from './support/scrapers.ts';
import { recipeField as f } from './support/recipe-answers.ts';

const RECIPE = {
  container: { selector: 'div.card' },
  fields: { name: f('h2', 'text'), link: f('a.more', 'attr', { attr: 'href' }), image: f('img', 'attr', { attr: 'src' }) },
  pagination: null,
};
const ATTRS = [
  { name: 'name', type: 'string' },
  { name: 'link', type: 'string' },
  { name: 'image', type: 'image' },
];

const PAGE = `<!doctype html><html><head><title>Shop</title></head><body><main><h1>Shop</h1>
${[1, 2, 3].map((k) => `<div class="card"><h2>Widget ${k}</h2><img src="../img/w${k}.png" alt="Widget ${k}"><a class="more" href="/p/widget-${k}?utm_source=mail&amp;ref=${k}">More about widget ${k}</a></div>`).join('\n')}
</main></body></html>`;

describe('one URL coercion path for runs and extraction (issue 16 item 5)', () => {
  let s: Stack;
  before(async () => {
    s = await startStack();
    s.site.route('/shop/list', (_q, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE));
    // The model copies each link and image as the page it was shown has them.
    s.model.script((req) => {
      if (sentSchema(req)?.properties?.container) return { json: RECIPE };
      const input = userContent(req);
      const records = [1, 2, 3].map((k) => ({
        name: `Widget ${k}`,
        link: new RegExp(`[^\\s()\\[\\]"]*/p/widget-${k}[^\\s()\\[\\]"]*`).exec(input)?.[0] ?? null,
        image: new RegExp(`[^\\s()\\[\\]"]*/img/w${k}\\.png`).exec(input)?.[0] ?? null,
      }));
      return { json: { records } };
    });
  });
  after(async () => {
    await s?.close();
  });

  it('gives the same absolute, tracking-free link from a run as from /v1/extract', async () => {
    const url = `${s.site.url}/shop/list`;
    const extracted = await s.api('POST', '/v1/extract', { url, attributes: ATTRS });
    expect(extracted.status, extracted.text).to.equal(200);

    const id = await buildScraper(s, { url, attributes: ATTRS });
    const run = await s.api('POST', '/v1/scrapers/run', { scraper_id: id, url });
    expect(run.status, run.text).to.equal(200);

    const expected = [1, 2, 3].map((k) => ({ name: `Widget ${k}`, link: `${s.site.url}/p/widget-${k}?ref=${k}`, image: `${s.site.url}/img/w${k}.png` }));
    expect(extracted.body.data).to.deep.equal(expected);
    expect(run.body.data).to.deep.equal(expected);
    // The run item records how it was fetched (no proxy_country: direct).
    const items = await s.engine.db.query<{ proxy: string }>('SELECT proxy FROM run_items');
    expect(items.rows.map((r) => r.proxy)).to.deep.equal(['direct']);
  });
});
