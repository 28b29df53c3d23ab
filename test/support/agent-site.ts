// Interactive fixture pages for the browsing agent and agentic scrapers: each hides its records
// behind something the agent must do (search, load more, a tab, an accordion, pagination by
// clicking, a cookie banner in the way). Products are rendered as "Product: <name> — $<price>"
// so the scripted model can read them back from the reduced page text (see agent-script.ts).
import type { FixtureSite } from '@gleaner/testing';

export interface Product {
  name: string;
  price: number;
}

export const PRODUCTS: Product[] = [
  { name: 'Red Kettle', price: 24.5 },
  { name: 'Blue Kettle', price: 26 },
  { name: 'Green Teapot', price: 31.25 },
  { name: 'Steel Kettle', price: 42 },
  { name: 'Copper Kettle', price: 58.9 },
  { name: 'Glass Teapot', price: 19.99 },
  { name: 'Iron Teapot', price: 64 },
  { name: 'Travel Mug', price: 12.5 },
  { name: 'Tea Strainer', price: 6.75 },
];

const doc = (title: string, body: string, head = '') => `<!doctype html><html><head><title>${title}</title>${head}</head><body>${body}</body></html>`;
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
export const productLine = (p: Product) =>
  `<li class="product"><span class="name">Product: ${esc(p.name)}</span> — <span class="price">$${p.price}</span></li>`;
const list = (ps: Product[]) => `<ul id="products">${ps.map(productLine).join('')}</ul>`;

/** Registers the agent fixture pages on a fixture site. */
export function addAgentPages(site: FixtureSite): void {
  // 1. A search form (GET): results exist only after typing and submitting.
  site.page(
    '/shop',
    doc(
      'Kettle shop',
      `<h1>Kettle shop</h1><p>Search our catalogue.</p>
    <form action="/shop/search" method="get"><label for="q">Search</label><input id="q" name="q" type="search"><button type="submit">Search</button></form>`,
    ),
  );
  site.route('/shop/search', (_q, res, url) => {
    const q = (url.searchParams.get('q') ?? '').toLowerCase();
    const hits = PRODUCTS.filter((p) => q && p.name.toLowerCase().includes(q));
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(doc(`Results for ${esc(q)}`, `<h1>Results for "${esc(q)}"</h1><p>${hits.length} results</p>${list(hits)}<a href="/shop">New search</a>`));
  });

  // 2. A "load more" button (JavaScript): three products, then three more per click.
  site.page(
    '/catalog',
    doc(
      'Catalog',
      `<h1>Catalog</h1>${list(PRODUCTS.slice(0, 3))}
    <button id="more" type="button">Load more</button>
    <script>
      let shown = 3;
      const all = ${JSON.stringify(PRODUCTS.slice(0, 9))};
      document.getElementById('more').addEventListener('click', async () => {
        await new Promise((r) => setTimeout(r, 100));
        for (const p of all.slice(shown, shown + 3)) {
          const li = document.createElement('li'); li.className = 'product';
          li.innerHTML = '<span class="name">Product: ' + p.name + '</span> — <span class="price">$' + p.price + '</span>';
          document.getElementById('products').append(li);
        }
        shown += 3;
        if (shown >= all.length) document.getElementById('more').remove();
      });
    </script>`,
    ),
  );

  // 3. Products behind a tab (JavaScript) and behind an accordion (<details>, no JavaScript).
  site.page(
    '/tabs',
    doc(
      'Tabs',
      `<h1>Our range</h1>
    <div role="tablist"><button role="tab" id="tab-kettles" aria-selected="true">Kettles</button><button role="tab" id="tab-teapots" aria-selected="false">Teapots</button></div>
    <div id="panel-kettles" role="tabpanel">${list(PRODUCTS.filter((p) => p.name.includes('Kettle')).slice(0, 1))}</div>
    <div id="panel-teapots" role="tabpanel" hidden>${list(PRODUCTS.filter((p) => p.name.includes('Teapot')))}</div>
    <script>
      for (const t of document.querySelectorAll('[role=tab]')) t.addEventListener('click', () => {
        for (const o of document.querySelectorAll('[role=tab]')) { o.setAttribute('aria-selected', String(o === t)); document.getElementById(o.id.replace('tab-', 'panel-')).hidden = o !== t; }
      });
    </script>`,
    ),
  );
  site.page(
    '/accordion',
    doc(
      'Accessories',
      `<h1>Accessories</h1>
    <details id="acc"><summary>Show accessories</summary>${list(PRODUCTS.slice(7))}</details>`,
    ),
  );

  // 4. Pagination reached by clicking "Next" (plain links).
  site.route('/list', (_q, res, url) => {
    const page = Math.max(1, Math.min(3, Number(url.searchParams.get('page') ?? 1)));
    const ps = PRODUCTS.slice((page - 1) * 3, page * 3);
    const nav = page < 3 ? `<a href="/list?page=${page + 1}" rel="next">Next page</a>` : '<span>Last page</span>';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(doc(`List page ${page}`, `<h1>All products, page ${page} of 3</h1>${list(ps)}<nav>${nav}</nav>`));
  });

  // 5. A cookie banner over the page: prices show only after accepting (JavaScript).
  site.page(
    '/banner',
    doc(
      'Deals',
      `<h1>Today's deals</h1><div id="deals"><p>Accept cookies to see the deals.</p></div>
    <div id="banner" style="position:fixed;inset:0;background:rgba(0,0,0,.6);z-index:10">
      <div style="background:#fff;margin:100px auto;width:300px;padding:20px"><p>We use cookies.</p>
      <button id="accept" type="button">Accept all</button><button id="reject" type="button">Reject</button></div></div>
    <script>
      document.getElementById('accept').addEventListener('click', () => {
        document.getElementById('banner').remove();
        document.getElementById('deals').innerHTML = ${JSON.stringify(list(PRODUCTS.slice(3, 5)))};
      });
    </script>`,
    ),
  );

  // A button that does nothing (loop detection) and a page that fails.
  site.page(
    '/stuck',
    doc('Stuck', `<h1>Nothing here</h1><button id="noop" type="button">Try again</button><script>document.getElementById('noop').onclick = () => {};</script>`),
  );
  site.page('/gone', doc('Gone', '<h1>Not found</h1>'), { status: 404 });
}
