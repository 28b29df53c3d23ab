// Readers of the two public corpora the evaluation measures on (docs/benchmarks.md): WCXB (main
// content, with/without snippets, page types) and the Zyte product benchmark (product facts). Both
// are read from the directory given on the command line; nothing here knows where it lives.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

export type WcxbPage = {
  id: string;
  type: string;
  url: string;
  html: string;
  mainContent: string;
  with: string[];
  without: string[];
};

export type ProductPage = {
  id: string;
  url: string;
  html: string;
  /** Accepted values per field (price, currency, availability, sku, brand, gtin, mpn). */
  values: Record<string, string[]>;
};

const readHtml = (file: string) => gunzipSync(readFileSync(file)).toString('utf8');

export function loadWcxb(root: string, opts: { limit?: number; types?: string[]; ids?: string[] } = {}): WcxbPage[] {
  const dir = join(root, 'wcxb-dev');
  if (!existsSync(dir)) throw new Error(`no wcxb-dev/ under ${root}`);
  const meta = JSON.parse(readFileSync(join(dir, 'metadata.json'), 'utf8')) as { files: Record<string, { page_type: string }> };
  const out: WcxbPage[] = [];
  const ids = readdirSync(join(dir, 'html'))
    .filter((f) => f.endsWith('.html.gz'))
    .map((f) => f.slice(0, -'.html.gz'.length))
    .sort();
  for (const id of ids) {
    const type = meta.files[id]?.page_type ?? (readGt(dir, id)._internal?.page_type?.primary as string | undefined) ?? 'unknown';
    if (opts.types?.length && !opts.types.includes(type)) continue;
    if (opts.ids?.length && !opts.ids.includes(id)) continue;
    const gt = readGt(dir, id);
    out.push({
      id,
      type,
      url: gt.url,
      html: readHtml(join(dir, 'html', `${id}.html.gz`)),
      mainContent: gt.ground_truth?.main_content ?? '',
      with: gt.ground_truth?.with ?? [],
      without: gt.ground_truth?.without ?? [],
    });
    if (opts.limit && out.length >= opts.limit) break;
  }
  return out;
}

function readGt(dir: string, id: string): any {
  return JSON.parse(readFileSync(join(dir, 'ground-truth', `${id}.json`), 'utf8'));
}

export function loadProducts(root: string, opts: { limit?: number } = {}): ProductPage[] {
  const dir = join(root, 'products-dev');
  if (!existsSync(dir)) throw new Error(`no products-dev/ under ${root}`);
  const gt = JSON.parse(readFileSync(join(dir, 'ground-truth.json'), 'utf8')) as Record<string, Record<string, unknown>>;
  const out: ProductPage[] = [];
  for (const id of Object.keys(gt).sort()) {
    const file = join(dir, 'html', `${id}.html.gz`);
    if (!existsSync(file)) continue;
    const { url, ...rest } = gt[id];
    const values: Record<string, string[]> = {};
    for (const [k, v] of Object.entries(rest)) if (Array.isArray(v)) values[k] = v.map(String);
    out.push({ id, url: String(url ?? `https://example.com/${id}`), html: readHtml(file), values });
    if (opts.limit && out.length >= opts.limit) break;
  }
  return out;
}
