import { useEffect, useState } from 'preact/hooks';
import { html } from './html.ts';
import { api } from './api.ts';
import { navigate } from './router.ts';
import { usePoll } from './poll.ts';
import { useAction } from './action.ts';
import type { ScraperListItem } from '@gleaner/core';
import { AttributeBuilder, blankAttr, ErrorBox, Json, RecordsTable, StatusBadge, toAttributes, type Attr } from './widgets.ts';
import { Versions } from './versions.ts';

/** The caller's scrapers, and a form to build a new one from a sample page. */
export function ScrapersList() {
  const [items, setItems] = useState<ScraperListItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [url, setUrl] = useState('');
  const [attrs, setAttrs] = useState<Attr[]>([blankAttr()]);
  const [prompt, setPrompt] = useState('');
  const [kind, setKind] = useState<'extractor' | 'agentic'>('extractor');
  const { busy, error: buildError, run } = useAction();
  useEffect(() => {
    api<ScraperListItem[]>('GET', '/v1/scrapers').then(setItems, (e: Error) => setError(e.message));
  }, []);
  const build = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const attributes = toAttributes(attrs);
      const r =
        kind === 'agentic'
          ? await api<{ template_id: string }>('POST', '/v1/agent/generate', { url, prompt, ...(attributes.length ? { attributes } : {}) })
          : await api<{ template_id: string }>('POST', '/v1/extractor/generate', { url, attributes, prompt });
      navigate(`/scrapers/${r.template_id}`);
    });
  };
  return html`<section aria-labelledby="sc-title">
    <h2 id="sc-title">Scrapers</h2>
    <${ErrorBox} error=${error ?? buildError} />
    ${
      items === null
        ? html`<p class="muted">Loading…</p>`
        : items.length === 0
          ? html`<p class="muted">No scrapers yet: build one below.</p>`
          : html`<div class="table-wrap">
              <table>
                <caption>
                  ${items.length} scrapers, newest first
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Type</th>
                    <th scope="col">Status</th>
                    <th scope="col">Drift</th>
                    <th scope="col">Sample URL</th>
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
                  ${items.map(
                    (s) =>
                      html`<tr>
                        <td><a href=${`#/scrapers/${s.id}`}>${s.name || s.id}</a></td>
                        <td>${s.type}</td>
                        <td><${StatusBadge} status=${s.status} /></td>
                        <td>
                          ${s.drift ? html`<span class="warning" title=${s.drift.reason ?? ''}>layout changed</span>` : html`<span class="muted">none</span>`}
                        </td>
                        <td class="url">${s.url ?? ''}</td>
                        <td>${s.created_at ? new Date(s.created_at).toLocaleString() : ''}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
    }
    <form class="stack card" onSubmit=${build} aria-labelledby="build-title">
      <h3 id="build-title">Build a scraper</h3>
      <label
        >Kind
        <select value=${kind} onChange=${(e: any) => setKind(e.currentTarget.value)}>
          <option value="extractor">Classic: a recipe of selectors, written once from the sample page</option>
          <option value="agentic">Agentic: the browsing agent records clicks and forms, replayed without a model</option>
        </select></label
      >
      <label
        >Sample URL <input type="url" required value=${url} onInput=${(e: any) => setUrl(e.currentTarget.value)} placeholder="https://example.com/list?page=1"
      /></label>
      <${AttributeBuilder} attrs=${attrs} onChange=${setAttrs} />
      <label
        >${kind === 'agentic' ? 'Prompt (required: what the agent should do and return)' : 'Prompt'}
        <textarea rows="2" required=${kind === 'agentic'} value=${prompt} onInput=${(e: any) => setPrompt(e.currentTarget.value)}></textarea>
      </label>
      <button type="submit" disabled=${busy}>${busy ? 'Starting…' : 'Build scraper'}</button>
    </form>
  </section>`;
}

/** A recipe as a table of fields and selectors (the JSON is one click away). */
function Recipe({ recipe, order }: { recipe: any; order: string[] }) {
  if (!recipe) return html`<p class="muted">No recipe yet.</p>`;
  // Stored as JSONB, whose keys come back in its own order: show them in the attributes' order.
  const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
  const fields = (Object.entries(recipe.fields ?? {}) as Array<[string, any]>).sort(([a], [b]) => rank(a) - rank(b));
  return html`<div>
    <p>
      ${'Each record is an element matching '}<code>${recipe.container?.selector ?? '(the page)'}</code>${recipe.pagination ? html`; next pages through <code>${JSON.stringify(recipe.pagination)}</code>` : ''}.
    </p>
    <div class="table-wrap">
      <table>
        <caption>
          Fields
        </caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Selector</th>
            <th scope="col">Reads</th>
            <th scope="col">Transforms</th>
          </tr>
        </thead>
        <tbody>
          ${fields.map(
            ([name, f]) =>
              html`<tr>
                <td>${name}</td>
                <td><code>${f.selector ?? ''}</code></td>
                <td>${f.read}${f.attr ? ` ${f.attr}` : ''}${f.path ? ` ${f.path}` : ''}</td>
                <td>${(f.transforms ?? []).map((t: any) => t.op).join(', ')}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
    <details>
      <summary>Recipe JSON</summary>
      <${Json} value=${recipe} label="Recipe JSON" />
    </details>
  </div>`;
}

/** A form for an agentic scraper's parameters, generated from its parameters_schema. */
function ParameterFields({ schema, values, onChange }: { schema: any[]; values: Record<string, string>; onChange: (v: Record<string, string>) => void }) {
  return html`<fieldset>
    <legend>Parameters</legend>
    ${schema.map(
      (p) =>
        html`<label
          >${p.name}${p.required ? ' (required)' : ''}
          <input
            required=${!!p.required}
            value=${values[p.name] ?? ''}
            onInput=${(e: any) => onChange({ ...values, [p.name]: e.currentTarget.value })}
            placeholder=${p.description ?? ''}
        /></label>`,
    )}
  </fieldset>`;
}

/** One scraper: status (followed while it builds), sample data, recipe, drift, a run form, versions and heals. */
export function ScraperDetail({ id }: { id: string }) {
  // Bumped after a rebuild starts, so the scraper is followed again until the new build settles.
  const [generation, setGeneration] = useState(0);
  const loaded = usePoll<any>(
    `${id}:${generation}`,
    () =>
      api('GET', `/v1/extractor/${encodeURIComponent(id)}`).catch((e) =>
        e.status === 404 ? api('GET', `/v1/agent/${encodeURIComponent(id)}`) : Promise.reject(e),
      ),
    (body) => body.status !== 'generating',
    1000,
  );
  const s = loaded.value;
  const { busy, error: runError, run: act } = useAction();
  const error = runError ?? loaded.error;
  const [urls, setUrls] = useState('');
  const [params, setParams] = useState<Record<string, string>>({});
  const run = (e: Event) => {
    e.preventDefault();
    void act(async () => {
      const list = urls
        .split('\n')
        .map((u) => u.trim())
        .filter(Boolean);
      const body: Record<string, unknown> = { template_id: id, source: 'console' };
      if (list.length) body.url = list;
      if (s.parameters_schema) body.parameters = params;
      const r = await api<{ run_id: string }>('POST', '/v1/scrapers/run_async', body);
      navigate(`/runs/${r.run_id}`);
    });
  };
  const order: string[] = (s?.attributes ?? []).map((a: { name: string }) => a.name);
  const [confirming, setConfirming] = useState(false);
  const base = s?.type === 'agentic' ? '/v1/agent' : '/v1/extractor';
  // Rebuild: the same sample URL, attributes and prompt as the last build; the scraper keeps its id and
  // its runs keep the current version until the new build is accepted.
  const rebuild = () =>
    void act(async () => {
      const body: Record<string, unknown> = { template_id: id, url: s.url, prompt: s.prompt ?? '' };
      if (s.attributes?.length || s.type === 'extractor') body.attributes = s.attributes ?? [];
      await api('POST', `${base}/generate`, body);
      setGeneration((g) => g + 1);
    });
  const remove = () =>
    void act(async () => {
      await api('DELETE', `${base}/${encodeURIComponent(id)}`);
      navigate('/scrapers');
    });
  if (!s)
    return html`<section>
      <h2>Scraper</h2>
      <${ErrorBox} error=${error} />${error ? null : html`<p class="muted">Loading…</p>`}
    </section>`;
  return html`<section aria-labelledby="sd-title">
    <h2 id="sd-title">${s.name ?? id} <${StatusBadge} status=${s.status} /></h2>
    <p class="muted">${s.type} scraper <code>${id}</code>${s.url ? html` · sample <a href=${s.url} rel="noreferrer">${s.url}</a>` : ''}</p>
    ${s.status === 'generating' ? html`<p role="status">Building: the model reads the sample page and writes a recipe, which is checked against it…</p>` : null}
    ${s.error ? html`<p class="error" role="alert">Build failed: ${s.error}</p>` : null}
    ${s.drift ? html`<p class="warning" role="status">Layout drift detected ${new Date(s.drift.detected_at).toLocaleString()}: ${s.drift.reason}</p>` : null}
    <${ErrorBox} error=${error} />
    <div class="actions" role="group" aria-label="Scraper actions">
      ${
        s.status === 'generating' || !s.url
          ? null
          : html`<button type="button" disabled=${busy} onClick=${rebuild} title="Build it again from its sample URL, attributes and prompt">Rebuild</button>`
      }
      ${
        confirming
          ? html`<span role="alert"
              >Delete this scraper${s.status === 'generating' ? ' and stop its build' : ''}? Its runs stay listed.
              <button type="button" class="danger" disabled=${busy} onClick=${remove}>Yes, delete</button>
              <button type="button" class="secondary" onClick=${() => setConfirming(false)}>Cancel</button></span
            >`
          : html`<button type="button" class="danger" onClick=${() => setConfirming(true)}>Delete</button>`
      }
    </div>
    <h3>Sample data</h3>
    <${RecordsTable} records=${Array.isArray(s.sample_data) ? s.sample_data : []} caption="Records from the sample page" order=${order} />
    ${
      s.type === 'extractor'
        ? html`<h3>Recipe${s.recipe_version ? ` (version ${s.recipe_version})` : ''}</h3>
            <${Recipe} recipe=${s.recipe} order=${order} />`
        : null
    }
    ${
      s.status === 'ready'
        ? html`<form class="stack card" onSubmit=${run} aria-labelledby="run-title">
            <h3 id="run-title">Run</h3>
            <label
              >URLs, one a line (empty: the sample URL) <textarea rows="4" value=${urls} onInput=${(e: any) => setUrls(e.currentTarget.value)}></textarea>
            </label>
            ${s.parameters_schema ? html`<${ParameterFields} schema=${s.parameters_schema} values=${params} onChange=${setParams} />` : null}
            <button type="submit" disabled=${busy}>${busy ? 'Starting…' : 'Start run'}</button>
          </form>`
        : null
    }
    ${s.status === 'generating' ? null : html`<${Versions} id=${id} version=${s.recipe_version ?? null} />`}
  </section>`;
}
