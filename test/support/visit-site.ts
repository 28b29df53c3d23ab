// A shop for list -> detail tests: categories of 30 products on 3 listing pages (10 links each, a
// rel=next "Next" link), each product on its own page with its SKU and weight, which the listing does
// not show. In the `kettles` category one product page has another layout (no `main.product`): the
// recipe finds nothing there and the model reads it. The scripted model answers detail extractions
// from the page text (`detailRecords`) and the recipe request with DETAIL_RECIPE.
import type { FixtureSite } from '@gleaner/testing';
import { recipeField, recipeTransform } from './recipe-answers.ts';

export interface ShopItem {
  name: string;
  sku: string;
  weight: string;
  slug: string;
}

export const CATEGORIES = { kettles: 'KT', teapots: 'TP', mugs: 'MG' } as const;
export type Category = keyof typeof CATEGORIES;
export const PER_PAGE = 10;
export const LISTING_PAGES = 3;
/** The product of `kettles` whose page has another layout. */
export const ODD_ONE = 17;

export function items(category: Category): ShopItem[] {
  const word = category.slice(0, 1).toUpperCase() + category.slice(1, -1);
  return Array.from({ length: PER_PAGE * LISTING_PAGES }, (_, i) => {
    const n = String(i + 1).padStart(2, '0');
    return { name: `${word} ${n}`, sku: `${CATEGORIES[category]}-10${n}`, weight: `${(1 + (i + 1) / 100).toFixed(2)} kg`, slug: `${category}-${n}` };
  });
}

export const DETAIL_ATTRIBUTES = [
  { name: 'name', type: 'string' as const, description: 'product name' },
  { name: 'sku', type: 'string' as const, description: 'the product code' },
  { name: 'weight', type: 'string' as const, description: 'the weight with its unit' },
];

const doc = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;

/** Registers /category/<name>?page=N and /product/<slug> for every category. */
export function addShop(site: FixtureSite): void {
  for (const category of Object.keys(CATEGORIES) as Category[]) {
    const all = items(category);
    site.route(`/category/${category}`, (_q, res, url) => {
      const page = Math.max(1, Math.min(LISTING_PAGES, Number(url.searchParams.get('page') ?? 1) || 1));
      const shown = all.slice((page - 1) * PER_PAGE, page * PER_PAGE);
      const links = shown.map((p) => `<li class="card"><a class="product-link" href="/product/${p.slug}">${p.name}</a></li>`).join('');
      const next = page < LISTING_PAGES ? `<a rel="next" href="/category/${category}?page=${page + 1}">Next</a>` : '';
      const prev = page > 1 ? `<a href="/category/${category}?page=${page - 1}">Previous</a>` : '';
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        doc(
          `${category} – page ${page}`,
          `<nav><a href="/">Home</a> <a href="/about">About us</a></nav><h1>All ${category}</h1><ul id="products">${links}</ul><p>${prev} Page ${page} of ${LISTING_PAGES} ${next}</p>`,
        ),
      );
    });
    for (const [i, p] of all.entries()) {
      const odd = category === 'kettles' && i + 1 === ODD_ONE;
      site.page(
        `/product/${p.slug}`,
        doc(
          p.name,
          odd
            ? `<div class="item"><h1>${p.name}</h1><p>Back in stock soon.</p><p>SKU: ${p.sku}</p><p>Weight: ${p.weight}</p></div>`
            : `<nav><a href="/category/${category}">All ${category}</a></nav><main class="product"><h1 class="title">${p.name}</h1><p class="sku">SKU: ${p.sku}</p><p class="weight">Weight: ${p.weight}</p><p>A fine product.</p></main>`,
        ),
      );
    }
  }
}

/** The model's extraction of a product page, read from its text (a listing page gives nothing). */
export function detailRecords(text: string): unknown[] {
  const name = /^#\s*(.+)$/m.exec(text)?.[1]?.trim();
  const sku = /SKU: (\S+)/.exec(text)?.[1];
  const weight = /Weight: ([\d.]+ kg)/.exec(text)?.[1];
  return name && sku ? [{ name, sku, weight: weight ?? null }] : [];
}

// The recipe the model writes for a product page (unused keys null, as under the answer schema).
const strip = (label: string) => [recipeTransform('replace', { pattern: `^${label}:\\s*`, with: '' })];
export const DETAIL_RECIPE = {
  container: { selector: 'main.product' },
  fields: {
    name: recipeField('h1', 'text'),
    sku: recipeField('.sku', 'text', { transforms: strip('SKU') }),
    weight: recipeField('.weight', 'text', { transforms: strip('Weight') }),
  },
  pagination: null,
};

export const sortByName = <T extends { name: unknown }>(rs: T[]) => [...rs].sort((a, b) => String(a.name).localeCompare(String(b.name)));
