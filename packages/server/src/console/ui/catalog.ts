import { useEffect, useState } from 'preact/hooks';
import { html } from './html.ts';
import { api } from './api.ts';
import { navigate } from './router.ts';
import { ErrorBox } from './widgets.ts';

/** The public catalog: browse entries, read one, clone it into your scrapers. */
export function Catalog({ slug }: { slug?: string }) {
  const [items, setItems] = useState<any[] | null>(null);
  const [entry, setEntry] = useState<any>(null);
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setError(null);
    // An answer for the page left behind can arrive after the one for the page shown: it is ignored.
    let latest = true;
    const fail = (e: Error) => latest && setError(e.message);
    if (slug) api('GET', `/v1/scraper-apis/${encodeURIComponent(slug)}`).then((r) => latest && setEntry(r), fail);
    else api<any[]>('GET', '/v1/scraper-apis').then((r) => latest && setItems(r), fail);
    return () => {
      latest = false;
    };
  }, [slug]);
  const clone = async (e: Event) => {
    e.preventDefault();
    setError(null);
    // Cloning takes a bearer access token (gleaner tokens create), not the API key.
    const res = await fetch(`/v1/scraper-apis/${encodeURIComponent(slug!)}/clone`, { method: 'POST', headers: { Authorization: `Bearer ${token.trim()}` } });
    const body = await res.json().catch(() => ({}));
    if (!res.ok) return setError(body.detail ?? `the server answered ${res.status}`);
    navigate(`/scrapers/${body.template_id ?? body.id}`);
  };
  if (slug) {
    return html`<section aria-labelledby="cat-title">
      <h2 id="cat-title">${entry?.title ?? slug}</h2>
      <${ErrorBox} error=${error} />
      ${
        entry
          ? html`<p>${entry.long_description ?? entry.description}</p>
              ${entry.sample_url ? html`<p class="muted">Sample: <span class="url">${entry.sample_url}</span></p>` : null}
              ${
                (entry.faqs ?? []).length
                  ? html`<h3>FAQ</h3>
                      <dl>
                        ${entry.faqs.map(
                          (f: any) =>
                            html`<dt>${f.question}</dt>
                              <dd>${f.answer}</dd>`,
                        )}
                      </dl>`
                  : null
              }
              <form class="row card" onSubmit=${clone}>
                <label
                  >Access token
                  <input
                    type="password"
                    required
                    value=${token}
                    onInput=${(e: any) => setToken(e.currentTarget.value)}
                    placeholder="glt_... (gleaner tokens create)"
                /></label>
                <button type="submit">Clone into my scrapers</button>
              </form>`
          : null
      }
    </section>`;
  }
  return html`<section aria-labelledby="cat-title">
    <h2 id="cat-title">Catalog</h2>
    <${ErrorBox} error=${error} />
    ${items && !items.length ? html`<p class="muted">Nothing published yet (<code>gleaner catalog publish</code>).</p>` : null}
    <ul class="cards">
      ${(items ?? []).map(
        (i) =>
          html`<li class="card">
            <h3><a href=${`#/catalog/${i.slug}`}>${i.title}</a></h3>
            <p>${i.description}</p>
            <p class="muted">${i.source_domain ?? ''}</p>
          </li>`,
      )}
    </ul>
  </section>`;
}
