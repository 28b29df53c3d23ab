import { useEffect, useState } from 'preact/hooks';
import { html } from './html.ts';
import { api } from './api.ts';
import { useAction } from './action.ts';
import { AttributeBuilder, blankAttr, ErrorBox, Results, toAttributes, type Attr } from './widgets.ts';
import { DetailsPanel } from './details.ts';
import type { ExtractResponse } from '@gleaner/core';

type Outcome = { kind: 'records'; body: ExtractResponse; ms: number } | { kind: 'markdown'; text: string; ms: number };

/** Extraction from a URL or pasted HTML, and a page's Markdown: the API's extract, parse and extract_markdown. */
export function Playground() {
  const [source, setSource] = useState<'url' | 'html'>('url');
  const [url, setUrl] = useState('');
  const [content, setContent] = useState('');
  const [attrs, setAttrs] = useState<Attr[]>([blankAttr()]);
  const [prompt, setPrompt] = useState('');
  const [mode, setMode] = useState('standard');
  const [paginate, setPaginate] = useState(false);
  const [maxPages, setMaxPages] = useState(2);
  const [country, setCountry] = useState('');
  const [cookies, setCookies] = useState('');
  const [mainOnly, setMainOnly] = useState(false);
  const [countries, setCountries] = useState<Record<string, string>>({});
  const { busy, error, run } = useAction();
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  useEffect(() => {
    // Only the countries a proxy is configured for: none, and the choice is not shown at all.
    api<Record<string, string>>('GET', '/v1/proxy-countries?configured=true').then(setCountries, () => undefined);
  }, []);

  const common = () => {
    const body: Record<string, unknown> = {};
    if (country) body.proxy_country = country;
    if (cookies.trim()) body.cookies = JSON.parse(cookies);
    return body;
  };
  const cookieError = (err: unknown) => (err instanceof SyntaxError ? `Cookies are not valid JSON: ${err.message}` : (err as Error).message);
  const go = (what: 'extract' | 'markdown') =>
    run(async () => {
      const started = performance.now();
      if (what === 'markdown') {
        const r = await api<{ data: string }>('POST', '/v1/extract_markdown', {
          url,
          ...common(),
          ...(mainOnly ? { only_main_content: true } : {}),
        });
        setOutcome({ kind: 'markdown', text: r.data, ms: performance.now() - started });
        return;
      }
      const body: Record<string, unknown> = { ...common(), attributes: toAttributes(attrs), prompt, mode, source: 'console' };
      if (paginate) Object.assign(body, { enable_pagination: true, max_pages: maxPages });
      const r =
        // ?details=true: the driver, page sizes, what the model saw, tokens and credits (a Gleaner extension).
        source === 'url'
          ? await api<ExtractResponse>('POST', '/v1/extract?details=true', { url, ...body })
          : await api<ExtractResponse>('POST', '/v1/parse?details=true', { content, ...(url ? { url } : {}), ...body });
      setOutcome({ kind: 'records', body: r, ms: performance.now() - started });
    }, cookieError);
  const submit = (e: Event) => {
    e.preventDefault();
    void go('extract');
  };

  return html`<section aria-labelledby="pg-title">
    <h2 id="pg-title">Playground</h2>
    <form class="stack" onSubmit=${submit}>
      <fieldset class="inline">
        <legend>Source</legend>
        <label><input type="radio" name="source" checked=${source === 'url'} onChange=${() => setSource('url')} /> URL</label>
        <label><input type="radio" name="source" checked=${source === 'html'} onChange=${() => setSource('html')} /> Pasted HTML</label>
      </fieldset>
      <label
        >${source === 'url' ? 'URL' : 'Base URL (optional)'}
        <input
          type="url"
          required=${source === 'url'}
          value=${url}
          onInput=${(e: any) => setUrl(e.currentTarget.value)}
          placeholder="https://example.com/products"
      /></label>
      ${source === 'html' ? html`<label>HTML <textarea rows="6" required value=${content} onInput=${(e: any) => setContent(e.currentTarget.value)}></textarea></label>` : null}
      <${AttributeBuilder} attrs=${attrs} onChange=${setAttrs} />
      <label
        >Prompt
        <textarea
          rows="2"
          value=${prompt}
          onInput=${(e: any) => setPrompt(e.currentTarget.value)}
          placeholder="Instructions; enough on their own without attributes"
        ></textarea>
      </label>
      <div class="row">
        <label
          >Mode
          <select value=${mode} onChange=${(e: any) => setMode(e.currentTarget.value)}>
            <option value="standard">standard</option>
            <option value="precision">precision</option>
            <option value="code">code</option>
          </select></label
        >
        <label><input type="checkbox" checked=${paginate} onChange=${(e: any) => setPaginate(e.currentTarget.checked)} /> Follow pagination</label>
        <label
          >Max pages <input type="number" min="1" value=${maxPages} disabled=${!paginate} onInput=${(e: any) => setMaxPages(Number(e.currentTarget.value))}
        /></label>
        ${
          Object.keys(countries).length
            ? html`<label
                >Proxy country
                <select value=${country} onChange=${(e: any) => setCountry(e.currentTarget.value)}>
                  <option value="">none</option>
                  ${Object.entries(countries).map(([v, label]) => html`<option value=${v}>${label}</option>`)}
                </select></label
              >`
            : null
        }
      </div>
      <label
        >Cookies (JSON, optional)
        <textarea
          rows="2"
          value=${cookies}
          onInput=${(e: any) => setCookies(e.currentTarget.value)}
          placeholder='[{"name": "session", "value": "..."}]'
        ></textarea>
      </label>
      <div class="row">
        <button type="submit" disabled=${busy}>${busy ? 'Extracting…' : 'Extract'}</button>
        <button type="button" class="secondary" disabled=${busy || source !== 'url' || !url} onClick=${() => void go('markdown')}>Markdown</button>
        <label><input type="checkbox" checked=${mainOnly} onChange=${(e: any) => setMainOnly(e.currentTarget.checked)} /> Main content only</label>
      </div>
    </form>
    <${ErrorBox} error=${error} />
    <div aria-live="polite">
      ${
        outcome?.kind === 'records'
          ? html`<p class="muted" data-testid="summary">
                ${outcome.body.data.length} records in ${(outcome.ms / 1000).toFixed(1)} s${outcome.body.message ? ` — ${outcome.body.message}` : ''}
              </p>
              <${Results} data=${outcome.body.data} extra=${outcome.body} />
              ${outcome.body.details ? html`<${DetailsPanel} details=${outcome.body.details} />` : null}`
          : outcome?.kind === 'markdown'
            ? html`<p class="muted">${outcome.text.length} characters of Markdown in ${(outcome.ms / 1000).toFixed(1)} s</p>
                <pre class="markdown" tabindex="0" aria-label="Markdown">${outcome.text}</pre>`
            : null
      }
    </div>
  </section>`;
}
