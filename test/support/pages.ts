// Fixture pages for the extraction tests: boilerplate around the facts, like real pages.
import { recipeField } from './recipe-answers.ts';

export function productsPage(): string {
  return `<!doctype html><html><head><title>Laptops — Shop</title>
<script>window.tracking = "SECRET_SCRIPT_TOKEN"; function x(){}</script>
<style>.card{border:1px solid #ccc} .SECRET_STYLE{}</style>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"ItemList","name":"Laptops catalogue"}</script>
</head><body>
<nav class="main-nav"><a href="/">Home</a> <a href="/about">About us</a> <a href="/careers">Careers</a></nav>
<div id="cookie-banner" class="cookie-consent">We use cookies COOKIE_BANNER_TEXT <button>Accept</button></div>
<main>
<h1>Laptops</h1>
<div class="card"><h2>Alpha Book</h2><span class="price">$1,299.00</span><img src="/img/alpha.jpg" alt="Alpha Book photo"><a href="/p/alpha?utm_source=news&amp;ref=7">Details</a><span class="stock">In stock</span></div>
<div class="card"><h2>Beta Pad</h2><span class="price">$899.50</span><img src="/img/beta.jpg" alt="Beta Pad photo"><a href="/p/beta">Details</a><span class="stock">Out of stock</span></div>
<div class="card"><h2>Gamma Pro</h2><span class="price">$2,450.00</span><img src="/img/gamma.jpg" alt="Gamma Pro photo"><a href="/p/gamma">Details</a><span class="stock">In stock</span></div>
<p style="display:none">HIDDEN_TEXT_TOKEN</p>
<svg width="10" height="10"><path d="M0 0L10 10 SVG_PATH_TOKEN"/></svg>
</main>
<footer>FOOTER_TEXT_TOKEN — © Shop Inc. <a href="/privacy">Privacy</a></footer>
</body></html>`;
}

export const PRODUCT_ATTRIBUTES = [
  { name: 'name', description: 'product name', type: 'string' },
  { name: 'price', description: 'price in dollars', type: 'number' },
  { name: 'image', description: 'product photo', type: 'image' },
  { name: 'in_stock', description: 'whether it is in stock', type: 'bool' },
  { name: 'url', description: 'link to the product page', type: 'string' },
];

/** What a model reading productsPage() would answer (raw, before coercion). */
export function productAnswer(base: string) {
  return {
    records: [
      { name: 'Alpha Book', price: '$1,299.00', image: '/img/alpha.jpg', in_stock: 'In stock', url: `${base}/p/alpha?ref=7` },
      { name: 'Beta Pad', price: '$899.50', image: `${base}/img/beta.jpg`, in_stock: 'Out of stock', url: `${base}/p/beta` },
      { name: 'Gamma Pro', price: 2450, image: '/img/gamma.jpg', in_stock: true, url: `${base}/p/gamma` },
    ],
  };
}

/** A listing page of numbered items, with optional next-page markup. */
export function listPage(items: number[], next: string): string {
  const cards = items.map((n) => `<li class="item"><a href="/item/${n}">Item ${n}</a> <span class="price">${n}.00 EUR</span></li>`).join('\n');
  return `<html><head><title>List</title>${next.startsWith('<link') ? next : ''}</head><body><nav><a href="/">Home</a></nav><ul>${cards}</ul>
<div class="pagination">${next.startsWith('<link') ? '' : next}</div><footer>Footer</footer></body></html>`;
}

/** Answers with a record per "Item N" the model was shown (a stand-in that reads its input). */
export function itemsFromInput(input: string): { records: Array<{ name: string; price: string }> } {
  const seen = new Set<string>();
  const records = [];
  for (const m of input.matchAll(/Item (\d+)/g)) {
    if (seen.has(m[1])) continue;
    seen.add(m[1]);
    records.push({ name: `Item ${m[1]}`, price: `${m[1]}.00 EUR` });
  }
  return { records };
}

/** A script step for pages of items: next-page questions get "none", the rest records. */
export function answerItems(req: { api: string; body: any }, input: string): { json: unknown } {
  const schema = req.api === 'ollama' ? req.body.format : req.body.response_format?.json_schema?.schema;
  if (schema?.properties?.next_url) return { json: { next_url: null } };
  return { json: itemsFromInput(input) };
}

/** A recipe field reading an element's text (the shape the recipe schema asks the model for). */
export const recipeTextField = (selector: string) => recipeField(selector, 'text');

/** The scripted model's two answers of a scraper build on productsPage(): standard extraction, then the recipe. */
export function productBuildAnswers() {
  return [
    {
      json: {
        records: [
          { name: 'Alpha Book', price: '$1,299.00' },
          { name: 'Beta Pad', price: '$899.50' },
          { name: 'Gamma Pro', price: '$2,450.00' },
        ],
      },
    },
    { json: { container: { selector: 'div.card' }, fields: { name: recipeTextField('h2'), price: recipeTextField('.price') }, pagination: null } },
  ];
}

/** What that build's recipe extracts from productsPage() with name (string) and price (number) attributes. */
export const BUILT_PRODUCTS = [
  { name: 'Alpha Book', price: 1299 },
  { name: 'Beta Pad', price: 899.5 },
  { name: 'Gamma Pro', price: 2450 },
];
