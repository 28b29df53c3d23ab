// Schedules (Gleaner extension): the list with health and the last run's changes, a form to create
// one, a schedule's page (pause, resume, trigger, delete, its runs with their change counts), and a
// run's diff with the changed fields highlighted.
import { useEffect, useState } from 'preact/hooks';
import { html } from './html.ts';
import { api } from './api.ts';
import { navigate } from './router.ts';
import { useAction } from './action.ts';
import { usePagedList } from './paged.ts';
import { usePoll } from './poll.ts';
import { ErrorBox, StatusBadge } from './widgets.ts';
import type { ChangeCounts, FinishedRunStatus, RecordChange, RunListItem, ScheduleView, ScraperListItem } from '@gleaner/core';

// FINISHED_RUN_STATUSES, written out: the console's bundle takes only types from core.
const FINISHED: readonly string[] = ['completed', 'completed_partial', 'failed'] satisfies readonly FinishedRunStatus[];
const STATES = ['new', 'changed', 'removed', 'unknown', 'unchanged'] as const;

/** "2 new · 1 changed" (states with a count), or a dash before the run is compared. */
function Counts({ counts }: { counts: ChangeCounts | null | undefined }) {
  if (!counts) return html`<span class="muted">–</span>`;
  const parts = STATES.filter((s) => counts[s]);
  if (!parts.length) return html`<span class="muted">no records</span>`;
  return html`<span class="counts">${parts.map((s) => html`<span class=${`badge badge-change-${s}`}>${counts[s]} ${s}</span> `)}</span>`;
}

function Health({ s }: { s: Pick<ScheduleView, 'health' | 'health_reason'> }) {
  return s.health === 'degraded' ? html`<span class="warning" title=${s.health_reason ?? ''}>degraded: ${s.health_reason}</span>` : html`<span>ok</span>`;
}

function ScheduleForm({ onCreated }: { onCreated: (id: string) => void }) {
  const [scrapers, setScrapers] = useState<ScraperListItem[]>([]);
  const [f, setF] = useState({ template_id: '', cron: '0 * * * *', timezone: 'UTC', urls: '', notify: 'changes', callback_url: '', key: '', name: '' });
  const { busy, error, run } = useAction();
  useEffect(() => {
    api<ScraperListItem[]>('GET', '/v1/scrapers').then(
      (list) => {
        const ready = list.filter((s) => s.status === 'ready' && s.type === 'extractor');
        setScrapers(ready);
        if (ready[0]) setF((old) => ({ ...old, template_id: old.template_id || ready[0].id }));
      },
      () => undefined,
    );
  }, []);
  const set = (k: keyof typeof f) => (e: any) => setF({ ...f, [k]: e.currentTarget.value });
  const submit = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const urls = f.urls
        .split('\n')
        .map((u) => u.trim())
        .filter(Boolean);
      const key = f.key
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean);
      const body = {
        template_id: f.template_id,
        cron: f.cron,
        timezone: f.timezone,
        notify: f.notify,
        ...(urls.length ? { url: urls.length === 1 ? urls[0] : urls } : {}),
        ...(f.callback_url.trim() ? { callback_url: f.callback_url.trim() } : {}),
        ...(key.length ? { key_attributes: key } : {}),
        ...(f.name.trim() ? { name: f.name.trim() } : {}),
      };
      onCreated((await api<ScheduleView>('POST', '/v1/schedules', body)).schedule_id);
    });
  };
  return html`<form onSubmit=${submit} aria-labelledby="new-schedule">
    <h3 id="new-schedule">New schedule</h3>
    <${ErrorBox} error=${error} />
    <div class="row">
      <label
        >Scraper
        <select value=${f.template_id} onChange=${set('template_id')} required>
          ${scrapers.map((s) => html`<option value=${s.id}>${s.name || s.id}</option>`)}
        </select></label
      >
      <label>Cron <input value=${f.cron} onInput=${set('cron')} required placeholder="0 * * * *" /></label>
      <label>Time zone <input value=${f.timezone} onInput=${set('timezone')} /></label>
      <label
        >Notify
        <select value=${f.notify} onChange=${set('notify')}>
          <option value="changes">on changes</option>
          <option value="always">after every run</option>
          <option value="failures">on failures</option>
        </select></label
      >
    </div>
    <label>URLs, one a line (empty: the scraper's own) <textarea rows="3" value=${f.urls} onInput=${set('urls')}></textarea></label>
    <div class="row">
      <label class="grow">Callback URL <input value=${f.callback_url} onInput=${set('callback_url')} placeholder="https://..." /></label>
      <label>Key fields <input value=${f.key} onInput=${set('key')} placeholder="sku" /></label>
      <label>Name <input value=${f.name} onInput=${set('name')} /></label>
    </div>
    <button type="submit" disabled=${busy || !f.template_id}>${busy ? 'Creating…' : 'Create schedule'}</button>
  </form>`;
}

/** The caller's schedules, newest first, with health and the last run's changes; and the create form. */
export function SchedulesList() {
  const [items, setItems] = useState<ScheduleView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const action = useAction();
  const load = () =>
    api<{ schedules: ScheduleView[] }>('GET', '/v1/schedules').then(
      (r) => setItems(r.schedules),
      (e: Error) => setError(e.message),
    );
  useEffect(() => void load(), []);
  const act = (id: string, verb: 'pause' | 'resume' | 'trigger') =>
    action.run(async () => {
      const r = await api<any>('POST', `/v1/schedules/${encodeURIComponent(id)}/${verb}`);
      if (verb === 'trigger') navigate(`/schedules/${id}/runs/${r.run_id}`);
      else await load();
    });
  return html`<section aria-labelledby="sched-title">
    <h2 id="sched-title">Schedules</h2>
    <${ErrorBox} error=${error ?? action.error} />
    ${
      items === null
        ? html`<p class="muted">Loading…</p>`
        : items.length === 0
          ? html`<p class="muted">No schedules yet: create one below.</p>`
          : html`<div class="table-wrap">
              <table>
                <caption>
                  Your schedules, newest first
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Schedule</th>
                    <th scope="col">Cron</th>
                    <th scope="col">Status</th>
                    <th scope="col">Health</th>
                    <th scope="col">Next run</th>
                    <th scope="col">Last run</th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  ${items.map(
                    (s) =>
                      html`<tr>
                        <td><a href=${`#/schedules/${s.schedule_id}`}>${s.name || s.schedule_id.slice(0, 8)}</a></td>
                        <td><code>${s.cron}</code> ${s.timezone}</td>
                        <td><${StatusBadge} status=${s.status} /></td>
                        <td><${Health} s=${s} /></td>
                        <td>${s.next_run_at ? new Date(s.next_run_at).toLocaleString() : '–'}</td>
                        <td>
                          ${
                            s.last_run
                              ? html`<a href=${`#/schedules/${s.schedule_id}/runs/${s.last_run.run_id}`}><${Counts} counts=${s.last_run.changes} /></a>`
                              : html`<span class="muted">never ran</span>`
                          }
                        </td>
                        <td>
                          <div class="row">
                            ${s.status === 'active' ? html`<button class="secondary" onClick=${() => act(s.schedule_id, 'pause')}>Pause</button>` : null}
                            ${s.status === 'paused' ? html`<button class="secondary" onClick=${() => act(s.schedule_id, 'resume')}>Resume</button>` : null}
                            ${s.status !== 'stopped' ? html`<button class="secondary" onClick=${() => act(s.schedule_id, 'trigger')}>Run now</button>` : null}
                          </div>
                        </td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
    }
    <${ScheduleForm} onCreated=${(id: string) => navigate(`/schedules/${id}`)} />
  </section>`;
}

/** One schedule: its settings, health, actions and runs (with change counts). */
export function ScheduleDetail({ id }: { id: string }) {
  const [s, setS] = useState<ScheduleView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const action = useAction();
  const path = `/v1/schedules/${encodeURIComponent(id)}`;
  useEffect(() => void api<ScheduleView>('GET', path).then(setS, (e: Error) => setError(e.message)), [id]);
  const {
    items: runs,
    error: runsError,
    more,
    loadMore,
  } = usePagedList<RunListItem>(
    `/v1/runs?limit=20&schedule_id=${encodeURIComponent(id)}`,
    'runs',
    (r) => r.run_id,
    (r) => !FINISHED.includes(r.status) || !r.changes,
  );
  if (!s)
    return html`<section>
      <h2>Schedule</h2>
      <${ErrorBox} error=${error} />
    </section>`;
  const act = (verb: 'pause' | 'resume' | 'trigger' | 'delete') =>
    action.run(async () => {
      if (verb === 'delete') {
        await api('DELETE', path);
        return navigate('/schedules');
      }
      const r = await api<any>('POST', `${path}/${verb}`);
      if (verb === 'trigger') navigate(`/schedules/${id}/runs/${r.run_id}`);
      else setS(r);
    });
  return html`<section aria-labelledby="schedule-title">
    <h2 id="schedule-title">${s.name || 'Schedule'} <${StatusBadge} status=${s.status} /></h2>
    <${ErrorBox} error=${error ?? action.error ?? runsError} />
    <dl class="facts">
      <dt>Scraper</dt>
      <dd><a href=${`#/scrapers/${s.template_id}`}>${s.template_id}</a></dd>
      <dt>Cron</dt>
      <dd><code>${s.cron}</code> (${s.timezone}), next ${s.next_run_at ? new Date(s.next_run_at).toLocaleString() : '–'}</dd>
      <dt>Health</dt>
      <dd><${Health} s=${s} /></dd>
      <dt>Notify</dt>
      <dd>${s.callback_url ? `${s.notify} → ${s.callback_url}` : 'no callback'}</dd>
      ${
        s.status_reason
          ? html`<dt>Stopped</dt>
              <dd class="error-text">${s.status_reason}</dd>`
          : null
      }
    </dl>
    <div class="row">
      ${s.status === 'active' ? html`<button class="secondary" onClick=${() => act('pause')}>Pause</button>` : null}
      ${s.status === 'paused' ? html`<button class="secondary" onClick=${() => act('resume')}>Resume</button>` : null}
      ${s.status !== 'stopped' ? html`<button onClick=${() => act('trigger')}>Run now</button>` : null}
      <button class="secondary" onClick=${() => act('delete')}>Delete</button>
    </div>
    <h3>Runs</h3>
    ${
      runs === null
        ? html`<p class="muted">Loading…</p>`
        : runs.length === 0
          ? html`<p class="muted">No runs yet.</p>`
          : html`<div class="table-wrap">
                <table>
                  <caption>
                    Runs of this schedule, newest first
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">Run</th>
                      <th scope="col">Status</th>
                      <th scope="col">Started</th>
                      <th scope="col">Changes</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${runs.map(
                      (r) =>
                        html`<tr>
                          <td>
                            <a href=${`#/schedules/${id}/runs/${r.run_id}`}><code>${r.run_id.slice(0, 8)}</code></a>
                          </td>
                          <td><${StatusBadge} status=${r.status} /></td>
                          <td>${new Date(r.created_at).toLocaleString()}</td>
                          <td><${Counts} counts=${r.changes as ChangeCounts | null} /></td>
                        </tr>`,
                    )}
                  </tbody>
                </table>
              </div>
              ${more ? html`<button class="secondary" onClick=${loadMore}>Load more runs</button>` : null}`
    }
  </section>`;
}

const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

/** One record's row: its fields, the changed ones with the old value struck through beside the new. */
function ChangeRow({ c }: { c: RecordChange }) {
  const changed = new Map((c.fields ?? []).map((f) => [f.field, f]));
  return html`<tr class=${`change-${c.state}`}>
    <td><span class=${`badge badge-change-${c.state}`}>${c.state}</span></td>
    <td class="url">${c.url}</td>
    <td>
      ${Object.entries(c.record).map(([k, v]) => {
        const f = changed.get(k);
        return html`<div>
          <span class="muted">${k}:</span>
          ${f ? html`<del>${show(f.old)}</del> <mark class="changed-field">${show(f.new)}</mark>` : html`<span>${show(v)}</span>`}
        </div>`;
      })}
    </td>
  </tr>`;
}

/** A scheduled run's diff against the schedule's earlier runs: every record that is not unchanged. */
export function RunChanges({ scheduleId, runId }: { scheduleId: string; runId: string }) {
  const { value: run, error } = usePoll<any>(
    runId,
    () => api('GET', `/v1/scrapers/run_async/${encodeURIComponent(runId)}?changes=true`),
    (body) => FINISHED.includes(body.status) && !!body.changes,
    1000,
  );
  const changes = run?.changes as { baseline_run_id: string | null; counts: ChangeCounts; records: RecordChange[] } | null | undefined;
  return html`<section aria-labelledby="diff-title">
    <h2 id="diff-title">
      Changes in run <a href=${`#/runs/${runId}`}><code>${runId.slice(0, 8)}</code></a> ${run ? html`<${StatusBadge} status=${run.status} />` : null}
    </h2>
    <p><a href=${`#/schedules/${scheduleId}`}>← the schedule</a></p>
    <${ErrorBox} error=${error} />
    ${
      !changes
        ? html`<p role="status" class="muted">${run && FINISHED.includes(run.status) ? 'Comparing with the earlier runs…' : 'Running…'}</p>`
        : html`<p>
              <${Counts} counts=${changes.counts} />
              ${changes.baseline_run_id ? html` against run <code>${changes.baseline_run_id.slice(0, 8)}</code>` : ' (the first run: every record is new)'}
            </p>
            ${
              changes.records.length
                ? html`<div class="table-wrap">
                    <table data-testid="changes">
                      <caption>
                        Records that are new, changed, removed or unknown
                      </caption>
                      <thead>
                        <tr>
                          <th scope="col">State</th>
                          <th scope="col">URL</th>
                          <th scope="col">Record</th>
                        </tr>
                      </thead>
                      <tbody>
                        ${changes.records.map((c) => html`<${ChangeRow} c=${c} />`)}
                      </tbody>
                    </table>
                  </div>`
                : html`<p class="muted">Nothing changed.</p>`
            }`
    }
  </section>`;
}
