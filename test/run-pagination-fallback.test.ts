// Issue 23, item 7: when a recipe's next-page rule finds no next page on a page that has one (here
// the rule matches product cards), a run falls back to the detection extract uses (rel=next, pager
// links) and says so in the run item, instead of quietly stopping after one page.
import { expect } from 'chai';
import { insertScraper } from '@gleaner/core/internal';
import { startStack, type Stack } from './support/stack.ts';

/** A shop page with two cards, a <link rel="next"> and a pager link (none on the last page). */
function shop(n: number, last: number): string {
  const next = n < last ? `<link rel="next" href="/shop?page=${n + 1}">` : '';
  const pager = n < last ? `<nav class="pager"><a class="pager__next" href="/shop?page=${n + 1}">Next</a></nav>` : '';
  const cards = [1, 2].map((k) => `<div class="card"><h2>Item ${n}-${k}</h2></div>`).join('');
  return `<html><head>${next}</head><body><main>${cards}</main>${pager}</body></html>`;
}

describe('runs keep paginating when the recipe rule finds nothing (issue 23 item 7)', () => {
  let s: Stack;
  before(async () => {
    s = await startStack();
    s.site.route('/shop', (_q, res, url) => void res.writeHead(200, { 'content-type': 'text/html' }).end(shop(Number(url.searchParams.get('page') ?? 1), 5)));
  });
  after(() => s?.close());

  it("follows the page's own next link for max_pages and says so in the run item", async () => {
    const owner = (await s.engine.authenticateApiKey(s.key))!;
    const recipe = {
      version: 1,
      container: { selector: 'div.card' },
      fields: { name: { selector: 'h2', read: 'text' } },
      pagination: { next: { selector: 'div.card' } }, // a generated rule that matched the cards, not the pager
    } as const;
    const id = await s.engine.db.tx((tx) =>
      insertScraper(tx, {
        ownerId: owner.id,
        kind: 'extractor',
        url: `${s.site.url}/shop?page=1`,
        attributes: [{ name: 'name', type: 'string', description: '' }],
        recipe,
      }),
    );
    const url = `${s.site.url}/shop?page=1`;
    const res = await s.api('POST', '/v1/scrapers/run', { template_id: id, url, max_pages: 3 });
    expect(res.status, res.text).to.equal(200);
    expect(res.body.status).to.equal('completed');
    expect(res.body.data.map((r: any) => r.name)).to.deep.equal(['Item 1-1', 'Item 1-2', 'Item 2-1', 'Item 2-2', 'Item 3-1', 'Item 3-2']);
    expect(res.body.messages[url]).to.contain('next-page rule (div.card) found no next page').and.contain(`${s.site.url}/shop?page=2`);
    const status = await s.api('GET', `/v1/scrapers/run_async/${res.body.run_id}`);
    expect(status.body.messages).to.deep.equal(res.body.messages);
    const { rows } = await s.engine.db.query<{ message: string; pages: number }>('SELECT message, pages FROM run_items WHERE run_id = $1', [res.body.run_id]);
    expect(rows[0].pages).to.equal(3);
    expect(rows[0].message).to.equal(res.body.messages[url]);
  });

  it('says nothing when the rule works, or when pagination ends', async () => {
    const owner = (await s.engine.authenticateApiKey(s.key))!;
    const recipe = {
      version: 1,
      container: { selector: 'div.card' },
      fields: { name: { selector: 'h2', read: 'text' } },
      pagination: { next: { selector: 'a.pager__next' } },
    } as const;
    const id = await s.engine.db.tx((tx) =>
      insertScraper(tx, {
        ownerId: owner.id,
        kind: 'extractor',
        url: `${s.site.url}/shop?page=4`,
        attributes: [{ name: 'name', type: 'string', description: '' }],
        recipe,
      }),
    );
    const res = await s.api('POST', '/v1/scrapers/run', { template_id: id, url: `${s.site.url}/shop?page=4`, max_pages: 3 });
    expect(res.body.data).to.have.length(4); // pages 4 and 5, the last without a next link
    expect(res.body).to.not.have.property('messages');
  });
});
