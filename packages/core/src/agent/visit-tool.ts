/**
 * The agent's `visit` tool call (list -> detail, see visit.ts): the refs the model named become the
 * links to open (their URL shape, or exactly those URLs when `similar` is off), each checked against
 * the task's allowed_domains, then the visit runs from the listing the agent is on. Returns the step
 * to record and the visit to keep; the caller counts the visit's usage and model time.
 */
import type { OperationContext } from '../context.ts';
import { GleanerError } from '../errors.ts';
import type { Cookie } from '../net/cookies.ts';
import type { OutlineElement } from '../plugins/driver.ts';
import type { ModelUsage } from '../usage.ts';
import type { AgentPage } from './browse.ts';
import type { Observation } from './observe.ts';
import type { AgentAction } from './tools.ts';
import type { AgentRunInput, AgentVisit, RecordedAction } from './types.ts';
import { describeVisit, runVisit, visitLinks } from './visit.ts';

export interface VisitToolCall {
  ctx: OperationContext;
  action: Extract<AgentAction, { name: 'visit' }>;
  /** The observation the model chose the refs on (the listing). */
  observation: Observation;
  page: Pick<AgentPage, 'checkDomain' | 'onBrowser'> & { readonly cookies: Cookie[] };
  input: Pick<AgentRunInput, 'goal' | 'proxyCountry' | 'ownerId' | 'allowedDomains'>;
  /** Index the step will have in the run's steps. */
  step: number;
  signal: AbortSignal;
  /** False once the task's token budget is spent (the visit's model fallbacks stop). */
  canSpend(): boolean;
  /** Text bound for the model: secret values back to their placeholders. */
  hide(text: string): string;
}

export interface VisitToolResult {
  result: Partial<RecordedAction>;
  visit: AgentVisit;
  usage: ModelUsage;
  modelMs: number;
}

export async function visitTool(v: VisitToolCall): Promise<VisitToolResult> {
  const { action: a, observation: o } = v;
  const byRef = (ref: string): OutlineElement | undefined => o.outline.elements.find((e) => e.ref === ref);
  const hrefs = a.refs.map((r) => {
    const el = byRef(r);
    if (!el) throw new GleanerError('BAD_REQUEST', `there is no element ${r} on this page; use a ref from the latest element list`);
    if (!el.href) throw new GleanerError('BAD_REQUEST', `${r} is not a link (it has no href); give the refs of item links`);
    return el.href;
  });
  const links = visitLinks(hrefs, o.url);
  if (!a.similar && links.pattern) Object.assign(links, { pattern: null, urls: hrefs.map((h) => new URL(h, o.url).href) });
  for (const u of links.urls ?? []) v.page.checkDomain(u);
  const out = await runVisit({
    ctx: v.ctx,
    listing: { url: o.url, html: o.snapshot.html },
    request: { links, followPagination: a.followPagination, maxItems: a.maxItems },
    attributes: v.input.goal.attributes,
    prompt: v.input.goal.prompt,
    cookies: v.page.cookies,
    preferBrowser: v.page.onBrowser,
    proxyCountry: v.input.proxyCountry,
    ownerId: v.input.ownerId,
    allowedDomains: v.input.allowedDomains,
    signal: v.signal,
    model: { canSpend: v.canSpend },
    hide: v.hide,
  });
  const visit: AgentVisit = {
    step: v.step,
    listingUrl: o.url,
    links,
    followPagination: a.followPagination,
    maxItems: a.maxItems,
    recipe: out.recipe,
    pages: out.pages,
  };
  const count = (by: string) => out.pages.filter((p) => p.by === by).length;
  const result: Partial<RecordedAction> = {
    records: out.pages.reduce((n, p) => n + p.records.length, 0),
    visit: {
      pattern: links.pattern,
      followPagination: a.followPagination,
      maxItems: a.maxItems,
      listingPages: out.listingPages.length,
      pages: out.pages.length,
      byRecipe: count('recipe'),
      byModel: count('model'),
      failed: count('failed'),
    },
    effect: describeVisit(out),
  };
  return { result, visit, usage: out.usage, modelMs: out.modelMs };
}
