// The playground's details panel: what `?details=true` adds to an extraction — the driver, the raw
// page size next to what the model saw of it (and that text), the model, tokens and credits.
import { html } from './html.ts';
import type { ExtractionDetails, PageDetails } from '@gleaner/core';

const kb = (bytes: number) => (bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} kB`);
const READ_BY: Record<PageDetails['read_by'], string> = {
  reduced_page: 'the reduced page text',
  page_skeleton: 'the page skeleton (a recipe was written from it)',
  recipe: 'nothing: the recipe read this page',
};

function Page({ page, index }: { page: PageDetails; index: number }) {
  const input = page.model_input;
  return html`<li>
    <div class="url">${page.url}</div>
    <div class="muted">
      ${`${page.driver} driver · ${kb(page.raw_bytes)} of HTML · ${page.records} record${page.records === 1 ? '' : 's'} · the model saw ${READ_BY[page.read_by]}`}
    </div>
    ${
      input
        ? html`<details>
            <summary>What the model saw: ${input.chars.toLocaleString()} characters, ${input.tokens.toLocaleString()} tokens</summary>
            <pre class="model-input" tabindex="0" aria-label=${`What the model saw of page ${index + 1}`}>${input.text}</pre>
          </details>`
        : null
    }
  </li>`;
}

export function DetailsPanel({ details }: { details: ExtractionDetails }) {
  const seen = details.pages.reduce((n, p) => n + (p.model_input?.chars ?? 0), 0);
  const rows: Array<[string, string]> = [
    ['Driver', details.driver],
    ['Model', details.model ? `${details.model.name} (${details.model.provider})` : 'none (no model call)'],
    ['Raw page size', `${kb(details.raw_bytes)} over ${details.pages.length} page${details.pages.length === 1 ? '' : 's'}`],
    ['What the model saw', `${seen.toLocaleString()} characters`],
    [
      'Tokens',
      `${details.usage.input_tokens.toLocaleString()} in, ${details.usage.output_tokens.toLocaleString()} out (${details.usage.model_calls} model call${details.usage.model_calls === 1 ? '' : 's'})`,
    ],
    ['Credits', String(details.credits)],
  ];
  return html`<section class="card" aria-labelledby="details-title">
    <h3 id="details-title">Details</h3>
    <dl class="facts" data-testid="details">
      ${rows.map(
        ([k, v]) =>
          html`<dt>${k}</dt>
            <dd>${v}</dd>`,
      )}
    </dl>
    <ol class="pages" aria-label="Pages read">
      ${details.pages.map((p, i) => html`<${Page} page=${p} index=${i} />`)}
    </ol>
  </section>`;
}
