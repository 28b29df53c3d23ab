// The page set and the timing loop of the browser benchmarks (playwright, selenium): ten documents of
// 60 paragraphs, a stylesheet, an image and an inline script, served by the fixture site on loopback.
import type { FixtureSite } from '@gleaner/testing';

/** Serves the bench pages on `site` and returns their URLs, addressed through `host` (default the site's own). */
export function browserBenchPages(site: FixtureSite, host?: string): string[] {
  const paragraphs = Array.from(
    { length: 60 },
    (_, i) => `<p>Paragraph ${i}: some ordinary article text, a <a href="/a/${i}">link</a> and <em>emphasis</em>.</p>`,
  ).join('\n');
  site.route(
    '/bench/style.css',
    (_q, res) => void res.writeHead(200, { 'content-type': 'text/css' }).end('body { font-family: sans-serif } p { margin: 4px }'),
  );
  site.route(
    '/bench/pixel.gif',
    (_q, res) =>
      void res.writeHead(200, { 'content-type': 'image/gif' }).end(Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')),
  );
  const base = host ? `http://${host}:${site.port}` : site.url;
  const urls: string[] = [];
  for (let i = 0; i < 10; i++) {
    site.page(
      `/bench/${i}`,
      `<!doctype html><html><head><title>Bench ${i}</title><link rel="stylesheet" href="/bench/style.css"></head><body>
      <h1>Bench page ${i}</h1><img src="/bench/pixel.gif" alt="">${paragraphs}
      <script>document.body.insertAdjacentHTML('beforeend', '<p id="js">rendered ' + ${i} + '</p>');</script></body></html>`,
    );
    urls.push(`${base}/bench/${i}`);
  }
  return urls;
}

/** Runs `n` pages over `concurrency` workers (each told its index); returns pages/s. */
export async function timedPages(n: number, concurrency: number, onePage: (url: string, worker: number) => Promise<void>, urls: string[]): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      for (let i = next++; i < n; i = next++) await onePage(urls[i % urls.length], w);
    }),
  );
  return n / ((performance.now() - t0) / 1000);
}
