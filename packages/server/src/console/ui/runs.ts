import { useState } from 'preact/hooks';
import { usePoll } from './poll.ts';
import { html } from './html.ts';
import { api } from './api.ts';
import { navigate } from './router.ts';
import { startedRuns } from './runs-store.ts';
import { download, toCsv } from './download.ts';
import { ErrorBox, StatusBadge } from './widgets.ts';

const FINISHED = ['completed', 'completed_partial', 'failed'];

/** Runs started in this tab, and any run by id. */
export function RunsList() {
  const [id, setId] = useState('');
  const runs = startedRuns();
  return html`<section aria-labelledby="runs-title">
    <h2 id="runs-title">Runs</h2>
    ${
      runs.length
        ? html`<ul class="plain">
            ${runs.map((r) => html`<li><a href=${`#/runs/${r.run_id}`}>${r.scraper}</a> — ${r.urls} URL${r.urls === 1 ? '' : 's'}, started ${new Date(r.at).toLocaleTimeString()}</li>`)}
          </ul>`
        : html`<p class="muted">Runs you start from a scraper's page appear here.</p>`
    }
    <form
      class="row"
      onSubmit=${(e: Event) => {
        e.preventDefault();
        if (id.trim()) navigate(`/runs/${id.trim()}`);
      }}
    >
      <label>Run id <input value=${id} onInput=${(e: any) => setId(e.currentTarget.value)} /></label>
      <button type="submit" class="secondary">Open</button>
    </form>
  </section>`;
}

/** One run: a live progress bar (the status endpoint, polled), then results and errors per URL, downloadable. */
export function RunDetail({ id }: { id: string }) {
  const { value: run, error } = usePoll<any>(
    id,
    () => api('GET', `/v1/scrapers/run_async/${encodeURIComponent(id)}`),
    (body) => FINISHED.includes(body.status),
    500,
  );
  if (!run)
    return html`<section>
      <h2>Run</h2>
      <${ErrorBox} error=${error} />
    </section>`;
  const pct = run.total ? Math.round((run.completed / run.total) * 100) : 0;
  const urls = Object.keys(run.data ?? {});
  const rows = urls.flatMap((u) => (run.errors?.[u] !== undefined ? [] : (run.data[u] as Array<Record<string, unknown>>).map((r) => ({ url: u, ...r }))));
  return html`<section aria-labelledby="run-title">
    <h2 id="run-title">Run <code>${id}</code> <${StatusBadge} status=${run.status} /></h2>
    <${ErrorBox} error=${error} />
    <div class="progress-line">
      <progress max=${run.total} value=${run.completed} aria-label="Run progress" aria-valuetext=${`${run.completed} of ${run.total} URLs`}></progress>
      <span data-testid="progress-text">${run.completed}/${run.total} URLs (${pct}%)</span>
    </div>
    ${
      FINISHED.includes(run.status)
        ? html`<div class="row">
              <span>${run.credits_charged ?? 0} credits</span>
              <button class="secondary" onClick=${() => download(`run-${id}.json`, JSON.stringify(run, null, 2), 'application/json')}>Download JSON</button>
              <button class="secondary" onClick=${() => download(`run-${id}.csv`, toCsv(rows), 'text/csv')}>Download CSV</button>
            </div>
            <div class="table-wrap">
              <table>
                <caption>
                  Per URL
                </caption>
                <thead>
                  <tr>
                    <th scope="col">URL</th>
                    <th scope="col">Outcome</th>
                    <th scope="col">Records</th>
                  </tr>
                </thead>
                <tbody>
                  ${urls.map(
                    (u) =>
                      html`<tr>
                        <td class="url">${u}</td>
                        <td>${run.errors?.[u] !== undefined ? html`<span class="error-text">${run.errors[u]}</span>` : 'completed'}</td>
                        <td>
                          ${
                            run.errors?.[u] !== undefined
                              ? ''
                              : html`<details>
                                  <summary>${run.data[u].length}</summary>
                                  <pre class="json">${JSON.stringify(run.data[u], null, 2)}</pre>
                                </details>`
                          }
                        </td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
        : html`<p role="status" class="muted">Running… this page follows the run.</p>`
    }
  </section>`;
}
