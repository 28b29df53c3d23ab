// The interaction half of an http session, on the linkedom document of the last response: what a
// browser does without JavaScript. A link click navigates, a submit button submits its form, typing
// and selecting set the form's values, checkboxes, radios and <details> toggle. Whatever only a
// script could do throws NEEDS_BROWSER, naming the element, so the agent moves to a browser driver.
import { GleanerError } from '@gleaner/core/plugin';
import type { ActionOptions, PageOutline, PageSnapshot, ScrollOptions, WaitForOptions } from '@gleaner/core/plugin';
import { firstLabelable, inputType, isRendered, optionLabel, optionValue, optionsOf, resolveAgainstBase } from './dom-shims.ts';
import { assertSelectable, defaultButton, formOwner, implicitSubmissionAllowed, isDisabled, isSubmitButton, submission } from './forms.ts';
import type { FormRequest } from './forms.ts';
import type { PageDocument } from './page-document.ts';
import { describeElement, findTarget, needsBrowser, requireTarget } from './targets.ts';

/** A navigation an action asks for: a followed link or a submitted form. */
export interface ActionNavigation extends FormRequest {
  referer?: string;
  /** The Origin header of a form POST. */
  origin?: string;
}

export interface InteractionHost {
  /** The current page, its document parsed on first use; throws when nothing was loaded. */
  page(what: string): { doc: PageDocument; snap: PageSnapshot };
  /** The current page and its document if it was parsed already; throws when nothing was loaded. */
  current(what: string): { doc?: PageDocument; snap: PageSnapshot };
  /** Loads a navigation as goto does (guarded, cookies, limits) and makes it the current page. */
  navigate(nav: ActionNavigation, opts?: ActionOptions): Promise<void>;
  /** Runs an action: refused once the session is closed, its abort mapped to the signal's reason. */
  call<T>(what: string, fn: () => Promise<T>): Promise<T>;
  /** Waits, interrupted when the session aborts. */
  sleep(ms: number): Promise<void>;
  /** The session's navigation timeout: the bound of a plain wait. */
  readonly totalMs: number;
}

/** What a click can activate, nearest first from the clicked element up. */
const ACTIVATABLE = 'a[href], area[href], button, input, select, textarea, option, summary, label';
const TEXT_TYPES = new Set(['text', 'search', 'tel', 'url', 'email', 'password', 'date', 'month', 'week', 'time', 'datetime-local', 'number']);

/** The Referer a link click sends (strict-origin-when-cross-origin, the browsers' default policy). */
function refererFor(from: string, to: string, el: Element): string | undefined {
  const rel = (el.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
  if (rel.includes('noreferrer') || (el.getAttribute('referrerpolicy') ?? '').toLowerCase() === 'no-referrer') return undefined;
  const a = new URL(from);
  const b = new URL(to);
  if (a.protocol === 'https:' && b.protocol !== 'https:') return undefined;
  if (a.origin === b.origin) return from.replace(/#.*$/, '');
  return `${a.origin}/`;
}

export class Interactions {
  readonly #host: InteractionHost;

  constructor(host: InteractionHost) {
    this.#host = host;
  }

  click(target: string, opts?: ActionOptions): Promise<void> {
    return this.#host.call(`clicking ${target}`, async () => {
      const { doc } = this.#host.page(`clicking ${target}`);
      const nav = this.#activate(doc, requireTarget(doc.document, target, doc.url), 0);
      if (nav) await this.#host.navigate(nav, opts);
    });
  }

  /** A click's activation behaviour: a navigation to load, or null when the document changed in place. */
  #activate(doc: PageDocument, el: Element, depth: number): ActionNavigation | null {
    const act = el.closest(ACTIVATABLE);
    // A script handler between the clicked element and what it activates may do anything.
    for (let cur: Element | null = el; cur && cur !== act?.parentElement; cur = cur.parentElement) {
      if (cur.hasAttribute('onclick')) throw needsBrowser(`clicking ${describeElement(el)}, which runs a script on click`);
    }
    if (!act) throw needsBrowser(`clicking ${describeElement(el)}, which has no link, form or control behind it`);
    if (isDisabled(act)) throw new GleanerError('BAD_REQUEST', `${describeElement(act)} is disabled`);
    const tag = act.localName;
    if (tag === 'a' || tag === 'area') return this.#follow(doc, act);
    if (tag === 'summary') {
      const details = act.parentElement;
      if (details?.localName !== 'details' || details.querySelector(':scope > summary') !== act) {
        throw needsBrowser(`clicking ${describeElement(act)}, which is not the summary of a <details>`);
      }
      if (details.hasAttribute('open')) details.removeAttribute('open');
      else details.setAttribute('open', '');
      doc.changed = true;
      return null;
    }
    if (tag === 'label') {
      const control = firstLabelable(act);
      if (!control || depth > 0) throw needsBrowser(`clicking ${describeElement(act)}, which labels no form control`);
      return this.#activate(doc, control, depth + 1);
    }
    if (tag === 'option') {
      const select = act.closest('select');
      if (select) this.#choose(doc, select, [act], !select.hasAttribute('multiple'));
      return null;
    }
    if (tag === 'select' || tag === 'textarea') return null; // focus only
    const type = tag === 'input' ? inputType(act) : (act.getAttribute('type') ?? 'submit').trim().toLowerCase();
    if (type === 'checkbox') {
      if (act.hasAttribute('checked')) act.removeAttribute('checked');
      else act.setAttribute('checked', '');
      doc.changed = true;
      return null;
    }
    if (type === 'radio') {
      this.#checkRadio(act);
      doc.changed = true;
      return null;
    }
    if (isSubmitButton(act)) {
      const form = formOwner(act);
      if (!form) throw needsBrowser(`clicking ${describeElement(act)}, a button with no form behind it`);
      return this.#submit(doc, form, act);
    }
    if (type === 'reset')
      throw new GleanerError('BAD_REQUEST', `clicking ${describeElement(act)}: the http driver does not reset forms; type or select the values instead`);
    if (type === 'file') throw needsBrowser(`clicking ${describeElement(act)}, a file chooser`);
    if (tag === 'button' || type === 'button') throw needsBrowser(`clicking ${describeElement(act)}, a button with no form behind it`);
    return null; // a text field or the like: a click only focuses it
  }

  #follow(doc: PageDocument, link: Element): ActionNavigation | null {
    const raw = (link.getAttribute('href') ?? '').trim();
    if (raw === '#' || /^javascript:/i.test(raw)) throw needsBrowser(`clicking ${describeElement(link)}, a link that only a script acts on`);
    const url = resolveAgainstBase(link, raw);
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new GleanerError('BAD_REQUEST', `${describeElement(link)} links to an invalid URL`);
    }
    // A link to a fragment of this very document only scrolls.
    const withoutHash = (u: string) => u.replace(/#.*$/, '');
    if (parsed.hash && withoutHash(parsed.href) === withoutHash(doc.url)) return null;
    return { url: parsed.href, method: 'GET', referer: refererFor(doc.url, parsed.href, link) };
  }

  #submit(doc: PageDocument, form: Element, submitter: Element | null): ActionNavigation {
    const req = submission(form, submitter);
    const origin = new URL(doc.url).origin;
    return { ...req, referer: refererFor(doc.url, req.url, form), ...(req.method === 'POST' ? { origin } : {}) };
  }

  /** Checks a radio button and unchecks the others of its group (same name, same form owner). */
  #checkRadio(radio: Element): void {
    const name = radio.getAttribute('name');
    if (name) {
      const form = formOwner(radio);
      for (const other of Array.from(radio.ownerDocument.querySelectorAll('input[type="radio" i]'))) {
        if (other !== radio && other.getAttribute('name') === name && formOwner(other) === form) other.removeAttribute('checked');
      }
    }
    radio.setAttribute('checked', '');
  }

  type(target: string, text: string, opts?: ActionOptions & { clear?: boolean; pressEnter?: boolean }): Promise<void> {
    return this.#host.call(`typing into ${target}`, async () => {
      const { doc } = this.#host.page(`typing into ${target}`);
      const el = requireTarget(doc.document, target, doc.url);
      const tag = el.localName;
      if (tag !== 'input' && tag !== 'textarea') {
        if ((el as HTMLElement).isContentEditable) throw needsBrowser(`typing into ${describeElement(el)}, an editable region only a script reads`);
        throw new GleanerError('BAD_REQUEST', `cannot type into ${describeElement(el)}: it is not a text field`);
      }
      if (tag === 'input' && !TEXT_TYPES.has(inputType(el)))
        throw new GleanerError('BAD_REQUEST', `cannot type into ${describeElement(el)}: it is not a text field`);
      if (isDisabled(el) || el.hasAttribute('readonly'))
        throw new GleanerError('BAD_REQUEST', `cannot type into ${describeElement(el)}: it is ${isDisabled(el) ? 'disabled' : 'read-only'}`);
      const before = opts?.clear ? '' : tag === 'textarea' ? (el.textContent ?? '') : (el.getAttribute('value') ?? '');
      // An input's value holds no line breaks; maxlength stops typing as it does for a user.
      let value = before + (tag === 'input' ? text.replace(/[\r\n]/g, '') : text);
      const max = Number(el.getAttribute('maxlength'));
      if (el.hasAttribute('maxlength') && Number.isInteger(max) && max >= 0 && value.length > max) value = value.slice(0, Math.max(max, before.length));
      if (tag === 'textarea') el.textContent = value + (opts?.pressEnter ? '\n' : '');
      else el.setAttribute('value', value);
      doc.changed = true;
      if (opts?.pressEnter && tag === 'input') {
        const nav = this.#implicitSubmit(doc, el);
        if (nav) await this.#host.navigate(nav, opts);
      }
    });
  }

  /** Enter in a field: the form's default button is clicked, or a one-field form is submitted. */
  #implicitSubmit(doc: PageDocument, field: Element): ActionNavigation | null {
    const form = formOwner(field);
    if (!form) throw needsBrowser(`pressing Enter in ${describeElement(field)}, which belongs to no form (only a script could act on it)`);
    const button = defaultButton(form);
    if (button) return isDisabled(button) ? null : this.#activate(doc, button, 0);
    return implicitSubmissionAllowed(form) ? this.#submit(doc, form, null) : null;
  }

  /** Selecting changes the document only (no navigation), so the action options have nothing to bound. */
  select(target: string, values: string | string[]): Promise<void> {
    const list = Array.isArray(values) ? values : [values];
    return this.#host.call(`selecting ${JSON.stringify(list)} in ${target}`, async () => {
      const { doc } = this.#host.page(`selecting in ${target}`);
      const select = requireTarget(doc.document, target, doc.url);
      if (select.localName !== 'select') throw new GleanerError('BAD_REQUEST', `${describeElement(select)} is not a <select>`);
      if (isDisabled(select)) throw new GleanerError('BAD_REQUEST', `${describeElement(select)} is disabled`);
      assertSelectable(select, list.length);
      const options = optionsOf(select);
      const chosen = list.map((v) => {
        const option = options.find((o) => optionValue(o) === v) ?? options.find((o) => optionLabel(o) === v.trim());
        if (!option) {
          const known = options
            .slice(0, 12)
            .map((o) => JSON.stringify(optionValue(o)))
            .join(', ');
          throw new GleanerError(
            'BAD_REQUEST',
            `${describeElement(select)} has no option with value or label ${JSON.stringify(v)} (options: ${known}${options.length > 12 ? ', …' : ''})`,
          );
        }
        if (isDisabled(option)) throw new GleanerError('BAD_REQUEST', `the option ${JSON.stringify(v)} of ${describeElement(select)} is disabled`);
        return option;
      });
      this.#choose(doc, select, chosen, true);
    });
  }

  /** Selects `chosen` (and, with `exclusive`, deselects the rest). */
  #choose(doc: PageDocument, select: Element, chosen: Element[], exclusive: boolean): void {
    if (exclusive) for (const o of optionsOf(select)) o.removeAttribute('selected');
    for (const o of chosen) o.setAttribute('selected', '');
    doc.changed = true;
  }

  scroll(opts: ScrollOptions): Promise<void> {
    // Nothing loads lazily without JavaScript: a scroll only checks its target exists.
    return this.#host.call(opts.selector ? `scrolling to ${opts.selector}` : 'scrolling', async () => {
      if (!opts.selector) return;
      const { doc } = this.#host.page(`scrolling to ${opts.selector}`);
      requireTarget(doc.document, opts.selector, doc.url);
    });
  }

  waitFor(opts: WaitForOptions): Promise<void> {
    if (opts.selector) {
      const selector = opts.selector;
      const state = opts.state ?? 'visible';
      return this.#host.call(`waiting for ${selector} to be ${state}`, async () => {
        const { doc } = this.#host.page(`waiting for ${selector}`);
        const el = findTarget(doc.document, selector);
        const shown = !!el && isRendered(el, { visibilityProperty: true });
        const met = state === 'attached' ? !!el : state === 'detached' ? !el : state === 'visible' ? shown : !shown;
        // The document changes only when an action loads or edits it: only a script could make it so.
        if (!met) throw needsBrowser(`waiting for ${selector} to be ${state} on ${doc.url}: the page as served is not so`);
      });
    }
    if (opts.networkIdle) return this.#host.call('waiting for network idle', async () => {});
    // No script runs: the document is quiet as soon as the action that loaded or edited it returned.
    if (opts.quietMs !== undefined) return this.#host.call('waiting for the page to be quiet', async () => {});
    const ms = Math.min(Math.max(0, opts.ms ?? 0), opts.timeoutMs ?? this.#host.totalMs, this.#host.totalMs);
    return this.#host.call(`waiting ${ms} ms`, () => this.#host.sleep(ms));
  }

  outline(): Promise<PageOutline> {
    return this.#host.call('outlining the page', async () => this.#host.page('outlining the page').doc.outline());
  }

  snapshot(): Promise<PageSnapshot> {
    return this.#host.call('reading the page', async () => {
      // Unchanged (or never parsed), the page is the response as it came: nothing to serialize.
      const { doc, snap } = this.#host.current('reading the page');
      // A changed document is no longer the bytes the server sent.
      return doc?.changed ? { ...snap, html: doc.html(), body: undefined } : snap;
    });
  }
}
