// The web console: sign in with an API key, then the playground, scrapers, runs and the catalog,
// all through the public HTTP API (the console has no private endpoints).
import { render } from 'preact';
import { useState } from 'preact/hooks';
import { html } from './html.ts';
import { session } from './api.ts';
import { useRoute } from './router.ts';
import { SignIn } from './signin.ts';
import { Playground } from './playground.ts';
import { ScrapersList, ScraperDetail } from './scrapers.ts';
import { RunsList, RunDetail } from './runs.ts';
import { Catalog } from './catalog.ts';
import { AgentTasks, AgentTask } from './agent.ts';
import { SchedulesList, ScheduleDetail, RunChanges } from './schedules.ts';
import { Usage } from './usage.ts';
import { SiteMap } from './map.ts';

const SECTIONS = [
  ['playground', 'Playground'],
  ['scrapers', 'Scrapers'],
  ['runs', 'Runs'],
  ['schedules', 'Schedules'],
  ['agent', 'Agent'],
  ['catalog', 'Catalog'],
  ['usage', 'Usage'],
  ['map', 'Map'],
] as const;

function View({ route }: { route: string[] }) {
  const [section, id, sub, subId] = route;
  if (section === 'schedules') {
    if (id && sub === 'runs' && subId) return html`<${RunChanges} scheduleId=${id} runId=${subId} key=${subId} />`;
    return id ? html`<${ScheduleDetail} id=${id} key=${id} />` : html`<${SchedulesList} />`;
  }
  if (section === 'scrapers') return id ? html`<${ScraperDetail} id=${id} key=${id} />` : html`<${ScrapersList} />`;
  if (section === 'runs') return id ? html`<${RunDetail} id=${id} key=${id} />` : html`<${RunsList} />`;
  if (section === 'agent') return id ? html`<${AgentTask} id=${id} key=${id} />` : html`<${AgentTasks} />`;
  if (section === 'catalog') return html`<${Catalog} slug=${id} key=${id ?? ''} />`;
  if (section === 'usage') return html`<${Usage} />`;
  if (section === 'map') return html`<${SiteMap} />`;
  return html`<${Playground} />`;
}

/** The skip link moves focus; following its #content would be taken for a route. */
function skip(e: Event) {
  e.preventDefault();
  document.getElementById('content')?.focus();
}

function App() {
  const [signedIn, setSignedIn] = useState(!!session.key());
  const route = useRoute();
  if (!signedIn) return html`<${SignIn} onSignedIn=${() => setSignedIn(true)} />`;
  return html`<div class="app">
    <a class="skip" href="#content" onClick=${skip}>Skip to content</a>
    <header>
      <strong class="brand">Gleaner</strong>
      <nav aria-label="Sections">
        <ul>
          ${SECTIONS.map(([path, label]) => html`<li><a href=${`#/${path}`} aria-current=${route[0] === path ? 'page' : undefined}>${label}</a></li>`)}
        </ul>
      </nav>
      <button
        class="secondary"
        onClick=${() => {
          session.signOut();
          setSignedIn(false);
        }}
      >
        Sign out
      </button>
    </header>
    <main id="content" tabindex="-1"><${View} route=${route} /></main>
  </div>`;
}

render(html`<${App} />`, document.getElementById('app')!);
