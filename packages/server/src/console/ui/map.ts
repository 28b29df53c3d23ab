import { useState } from 'preact/hooks';
import { html } from './html.ts';
import { api } from './api.ts';
import { useAction } from './action.ts';
import { ErrorBox } from './widgets.ts';
import type { MapResult } from '@gleaner/core';

const lines = (s: string) =>
  s
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);

/** Map a site: POST /v1/map (a Gleaner extension), its URLs with where each was found. */
export function SiteMap() {
  const [url, setUrl] = useState('');
  const [limit, setLimit] = useState(200);
  const [sitemap, setSitemap] = useState('include');
  const [include, setInclude] = useState('');
  const [exclude, setExclude] = useState('');
  const [sameDomain, setSameDomain] = useState(true);
  const { busy, error, run } = useAction();
  const [result, setResult] = useState<{ body: MapResult; ms: number } | null>(null);

  const submit = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const started = performance.now();
      const body: Record<string, unknown> = { url, limit, sitemap, same_domain: sameDomain };
      if (lines(include).length) body.include = lines(include);
      if (lines(exclude).length) body.exclude = lines(exclude);
      setResult({ body: await api<MapResult>('POST', '/v1/map', body), ms: performance.now() - started });
    });
  };

  return html`<section aria-labelledby="map-title">
    <h2 id="map-title">Map a site</h2>
    <form class="stack" onSubmit=${submit}>
      <label
        >Start URL <input type="url" required value=${url} onInput=${(e: any) => setUrl(e.currentTarget.value)} placeholder="https://example.com/"
      /></label>
      <div class="row">
        <label>Limit <input type="number" min="1" max="10000" value=${limit} onInput=${(e: any) => setLimit(Number(e.currentTarget.value))} /></label>
        <label
          >Sitemaps
          <select value=${sitemap} onChange=${(e: any) => setSitemap(e.currentTarget.value)}>
            <option value="include">sitemaps, then links</option>
            <option value="only">sitemaps only</option>
            <option value="skip">links only</option>
          </select></label
        >
        <label><input type="checkbox" checked=${sameDomain} onChange=${(e: any) => setSameDomain(e.currentTarget.checked)} /> Same site only</label>
      </div>
      <div class="row">
        <label
          >Include (regular expressions on the path, one a line)
          <textarea rows="2" value=${include} onInput=${(e: any) => setInclude(e.currentTarget.value)} placeholder="^/products/"></textarea>
        </label>
        <label
          >Exclude
          <textarea rows="2" value=${exclude} onInput=${(e: any) => setExclude(e.currentTarget.value)} placeholder="\\?sort="></textarea>
        </label>
      </div>
      <div class="row"><button type="submit" disabled=${busy}>${busy ? 'Mapping…' : 'Map'}</button></div>
    </form>
    <${ErrorBox} error=${error} />
    <div aria-live="polite">
      ${
        result
          ? html`<p class="muted" data-testid="map-summary">
                ${result.body.urls.length} URLs in ${(result.ms / 1000).toFixed(1)} s — ${result.body.sitemaps.length} sitemaps read,
                ${result.body.pages_visited} pages visited, ${result.body.disallowed} disallowed by robots.txt
              </p>
              <table>
                <thead>
                  <tr>
                    <th scope="col">URL</th>
                    <th scope="col">Source</th>
                    <th scope="col">Found in</th>
                  </tr>
                </thead>
                <tbody>
                  ${result.body.urls.map(
                    (u) =>
                      html`<tr>
                        <td><a href=${u.url} rel="noreferrer noopener" target="_blank">${u.url}</a></td>
                        <td>${u.source}</td>
                        <td>${u.found_in ?? ''}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>`
          : null
      }
    </div>
  </section>`;
}
