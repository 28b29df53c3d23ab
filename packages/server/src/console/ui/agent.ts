import { useState } from 'preact/hooks';
import { html } from './html.ts';
import { api } from './api.ts';
import { navigate } from './router.ts';
import { usePoll } from './poll.ts';
import { useAction } from './action.ts';
import type { AgentStepSummary, TaskListItem } from '@gleaner/core';
import { usePagedList } from './paged.ts';
import { AttributeBuilder, blankAttr, ErrorBox, Results, StatusBadge, toAttributes, type Attr } from './widgets.ts';

const FINISHED = ['completed', 'failed', 'stopped'];

/** Starts a one-shot browsing agent (POST /v1/agent/extract); lists the caller's agent tasks (GET /v1/tasks). */
export function AgentTasks() {
  const [url, setUrl] = useState('');
  const [prompt, setPrompt] = useState('');
  const [attrs, setAttrs] = useState<Attr[]>([blankAttr()]);
  const { busy, error, run } = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    void run(async () => {
      const r = await api<{ task_id: string }>('POST', '/v1/agent/extract', { url, prompt, attributes: toAttributes(attrs), source: 'console' });
      navigate(`/agent/${r.task_id}`);
    });
  };
  const {
    items: tasks,
    error: listError,
    more,
    loadMore,
  } = usePagedList<TaskListItem>(
    '/v1/tasks?kind=agent&limit=20',
    'tasks',
    (t) => t.task_id,
    (t) => !FINISHED.includes(t.status),
  );
  return html`<section aria-labelledby="ag-title">
    <h2 id="ag-title">Agent tasks</h2>
    <${ErrorBox} error=${listError} />
    ${
      tasks?.length
        ? html`<ul class="plain" aria-label="Your agent tasks">
              ${tasks.map(
                (t) =>
                  html`<li>
                    <a href=${`#/agent/${t.task_id}`}>${t.prompt}</a> <${StatusBadge} status=${t.status} />
                    ${` — ${t.url ?? ''}, ${t.steps} step${t.steps === 1 ? '' : 's'}, started ${new Date(t.created_at).toLocaleString()}`}
                  </li>`,
              )}
            </ul>
            ${more ? html`<button class="secondary" onClick=${loadMore}>Load more tasks</button>` : null}`
        : null
    }
    <form class="stack card" onSubmit=${submit} aria-labelledby="ag-new">
      <h3 id="ag-new">Start an agent</h3>
      <label>Start URL <input type="url" required value=${url} onInput=${(e: any) => setUrl(e.currentTarget.value)} /></label>
      <label
        >Goal
        <textarea
          rows="2"
          required
          value=${prompt}
          onInput=${(e: any) => setPrompt(e.currentTarget.value)}
          placeholder="Search for kettles and return every result"
        ></textarea>
      </label>
      <${AttributeBuilder} attrs=${attrs} onChange=${setAttrs} />
      <button type="submit" disabled=${busy}>${busy ? 'Starting…' : 'Start agent'}</button>
    </form>
    <${ErrorBox} error=${error} />
  </section>`;
}

/** What was typed or chosen, after the target (spaces as values: htm drops whitespace around line breaks). */
const value = (st: AgentStepSummary) => (st.value === undefined ? '' : html`${' ← '}<code>${Array.isArray(st.value) ? st.value.join(', ') : st.value}</code>`);

/** One agent task: its step timeline, followed live, then its records; stoppable while it runs. */
export function AgentTask({ id }: { id: string }) {
  const { value: task, error } = usePoll<any>(
    id,
    () => api('GET', `/v1/agent/extract/${encodeURIComponent(id)}`),
    (t) => FINISHED.includes(t.status),
    700,
  );
  const [stopError, setStopError] = useState<string | null>(null);
  if (!task)
    return html`<section>
      <h2>Agent task</h2>
      <${ErrorBox} error=${error} />
    </section>`;
  const steps: AgentStepSummary[] = task.steps ?? [];
  const stop = () => api('POST', `/v1/agent/extract/${encodeURIComponent(id)}/stop`).catch((e: Error) => setStopError(e.message));
  return html`<section aria-labelledby="at-title">
    <h2 id="at-title">Agent task <code>${id}</code> <${StatusBadge} status=${task.status} /></h2>
    <${ErrorBox} error=${error ?? stopError} />
    ${task.error ? html`<p class="error" role="alert">${task.error}</p>` : null} ${task.message ? html`<p class="muted">${task.message}</p>` : null}
    ${FINISHED.includes(task.status) ? null : html`<button class="secondary" onClick=${stop}>Stop</button>`}
    <h3>Steps</h3>
    <ol class="timeline" aria-label="Steps" aria-live="polite">
      ${steps.map(
        (st) =>
          html`<li class=${st.ok ? 'ok' : 'failed'}>
            <strong>${st.action}</strong>${st.target ? ` ${st.target}` : ''}${value(st)}
            <span class="muted"
              >${` · ${(st.duration_ms / 1000).toFixed(1)} s · ${st.tokens} tokens${st.records !== undefined ? ` · ${st.records} records` : ''}`}</span
            >
            ${st.error ? html`<div class="error-text">${st.error}</div>` : null}
            <div class="muted url">${st.url}</div>
          </li>`,
      )}
    </ol>
    ${FINISHED.includes(task.status) ? null : html`<p role="status" class="muted">Running… this page follows the task.</p>`}
    ${
      Array.isArray(task.data)
        ? html`<h3>Records</h3>
            <${Results} data=${task.data} extra=${task} name=${`agent-task-${task.task_id}`} />`
        : null
    }
  </section>`;
}
