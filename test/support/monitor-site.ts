// A shop on the fixture site whose pages change between a schedule's firings: each page's products
// are set by the test, a page can be made to answer 500, and every body served is kept (to compare
// with the snapshot archive). With a classic scraper row that reads it (name, price), no model needed.
import { insertScraper, type Owner } from '@gleaner/core/internal';
import type { Engine } from '@gleaner/core';
import type { FixtureSite } from '@gleaner/testing';

export type Product = { name: string; price: number };

export const SHOP_RECIPE = {
  version: 1 as const,
  container: { selector: 'div.product' },
  fields: {
    name: { selector: 'h2', read: 'text' as const },
    price: { selector: '.price', read: 'text' as const, transforms: [{ op: 'number' as const }] },
  },
};

export const shopHtml = (title: string, products: Product[]) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main>${products
    .map((p) => `<div class="product"><h2>${p.name}</h2><span class="price">${p.price} EUR</span></div>`)
    .join('')}</main></body></html>`;

export interface MonitorShop {
  /** The products of each page (path -> products); change them between firings. */
  pages: Map<string, Product[]>;
  /** Paths answering an error status (500: retried by the run; 404: fails at once) while listed. */
  failing: Map<string, number>;
  /** Every 200 body served, by path (last one last). */
  served: Map<string, string[]>;
  url(path: string): string;
}

export function monitorShop(site: FixtureSite, paths: string[]): MonitorShop {
  const shop: MonitorShop = { pages: new Map(), failing: new Map(), served: new Map(), url: (p) => `${site.url}${p}` };
  for (const path of paths) {
    site.route(path, (_req, res) => {
      const failing = shop.failing.get(path);
      if (failing) return void res.writeHead(failing, { 'content-type': 'text/plain' }).end('down for maintenance');
      const body = shopHtml(`Shop ${path}`, shop.pages.get(path) ?? []);
      shop.served.set(path, [...(shop.served.get(path) ?? []), body]);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    });
  }
  return shop;
}

/** A ready classic scraper of the shop (sample: the products given). */
export function insertShopScraper(engine: Engine, owner: Owner, url: string, sample: Product[]): Promise<string> {
  return engine.db.tx((tx) =>
    insertScraper(tx, {
      ownerId: owner.id,
      kind: 'extractor',
      url,
      status: 'ready',
      attributes: [
        { name: 'name', description: '', type: 'string' },
        { name: 'price', description: '', type: 'number' },
      ],
      recipe: SHOP_RECIPE,
      sampleData: sample,
      sampleDriver: 'http',
    }),
  );
}
