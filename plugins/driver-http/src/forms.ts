// Form submission as a browser does it without scripts (HTML "form submission algorithm"): the form
// owner, the submitter's overrides (formaction, formmethod, formenctype), the entry list in tree order,
// and the encodings (GET query, urlencoded, multipart/form-data, text/plain).
import { randomBytes } from 'node:crypto';
import { GleanerError } from '@gleaner/core/plugin';
import {
  baseUrl,
  buttonType,
  documentCharset,
  documentUrl,
  inputType,
  inputValue,
  isMultiple,
  optionValue,
  resolveAgainstBase,
  selectedOptions,
} from './dom-shims.ts';
import { describeElement, needsBrowser } from './targets.ts';
import { formEncoder, percentEncode } from './form-encoding.ts';
import type { FormEncoder } from './form-encoding.ts';

/** A navigation a form submission asks for. */
export interface FormRequest {
  url: string;
  method: 'GET' | 'POST';
  body?: Buffer;
  contentType?: string;
}

const LISTED = 'button, fieldset, input, object, output, select, textarea';

/** The form an element belongs to: the one its `form` attribute names, else its nearest `<form>`. */
export function formOwner(el: Element): Element | null {
  if (el.hasAttribute('form')) {
    const named = el.ownerDocument.getElementById(el.getAttribute('form') ?? '');
    return named?.localName === 'form' ? named : null;
  }
  return el.closest('form');
}

/** The form's listed elements in tree order: its descendants and elements elsewhere that name it. */
function formElements(form: Element): Element[] {
  return Array.from(form.ownerDocument.querySelectorAll(LISTED)).filter((el) => formOwner(el) === form);
}

/** Disabled itself, or inside a disabled `<fieldset>` (outside that fieldset's first legend). */
export function isDisabled(el: Element): boolean {
  if (el.hasAttribute('disabled') && el.matches('button, input, select, textarea, option, optgroup, fieldset')) return true;
  for (let cur = el.parentElement; cur; cur = cur.parentElement) {
    if (cur.localName !== 'fieldset' || !cur.hasAttribute('disabled')) continue;
    const legend = cur.querySelector(':scope > legend');
    if (!legend || !legend.contains(el)) return true;
  }
  return false;
}

/** A submit button: `<button>` of type submit, `<input type=submit|image>`. */
export function isSubmitButton(el: Element): boolean {
  if (el.localName === 'button') return buttonType(el) === 'submit';
  return el.localName === 'input' && (inputType(el) === 'submit' || inputType(el) === 'image');
}

/** The form's default button: its first submit button in tree order (implicit submission). */
export function defaultButton(form: Element): Element | null {
  return formElements(form).find(isSubmitButton) ?? null;
}

const BLOCKS_IMPLICIT = new Set(['text', 'search', 'url', 'tel', 'email', 'password', 'date', 'month', 'week', 'time', 'datetime-local', 'number']);

/** Without a default button, Enter submits only a form with a single text-like field. */
export function implicitSubmissionAllowed(form: Element): boolean {
  return formElements(form).filter((el) => el.localName === 'input' && BLOCKS_IMPLICIT.has(inputType(el))).length <= 1;
}

type Entry = [name: string, value: string | { file: true }];

/** The entry list ("constructing the entry list"), in tree order. */
function entries(form: Element, submitter: Element | null): Entry[] {
  const out: Entry[] = [];
  for (const el of formElements(form)) {
    if (el.closest('datalist') || isDisabled(el)) continue;
    const tag = el.localName;
    if (tag === 'button' || (tag === 'input' && ['submit', 'image', 'reset', 'button'].includes(inputType(el)))) {
      if (el !== submitter) continue;
    }
    const name = el.getAttribute('name') ?? '';
    if (tag === 'input' && inputType(el) === 'image') {
      // A keyboard-style activation: the click coordinates are 0,0.
      const prefix = name ? `${name}.` : '';
      out.push([`${prefix}x`, '0'], [`${prefix}y`, '0']);
      continue;
    }
    if (!name || tag === 'object' || tag === 'fieldset' || tag === 'output') continue;
    if (tag === 'select') {
      for (const o of selectedOptions(el)) if (!isDisabled(o)) out.push([name, optionValue(o)]);
      continue;
    }
    if (tag === 'textarea') {
      out.push([name, el.textContent ?? '']);
    } else if (tag === 'input') {
      const type = inputType(el);
      if ((type === 'checkbox' || type === 'radio') && !el.hasAttribute('checked')) continue;
      if (type === 'file') out.push([name, { file: true }]);
      else if (type === 'hidden' && name.toLowerCase() === '_charset_') out.push([name, 'UTF-8']);
      else out.push([name, inputValue(el)]);
    } else {
      out.push([name, el.getAttribute('value') ?? '']);
    }
    const dirname = el.getAttribute('dirname');
    if (dirname && (tag === 'textarea' || tag === 'input')) out.push([dirname, 'ltr']);
  }
  return out;
}

const crlf = (s: string) => s.replace(/\r\n|\r|\n/g, '\r\n');

function urlencoded(list: Entry[], encode: FormEncoder): string {
  return list.map(([name, value]) => `${percentEncode(encode(crlf(name)))}=${percentEncode(encode(typeof value === 'string' ? crlf(value) : ''))}`).join('&');
}

function multipart(list: Entry[], encode: FormEncoder): { body: Buffer; contentType: string } {
  const boundary = `----GleanerFormBoundary${randomBytes(8).toString('hex')}`;
  const escapeName = (s: string) => s.replace(/\n/g, '%0A').replace(/\r/g, '%0D').replace(/"/g, '%22');
  const parts: Buffer[] = [];
  for (const [name, value] of list) {
    const disposition = `--${boundary}\r\nContent-Disposition: form-data; name="${escapeName(crlf(name))}"`;
    if (typeof value === 'string') {
      parts.push(encode(`${disposition}\r\n\r\n`), encode(crlf(value)), Buffer.from('\r\n'));
    } else {
      // No file is ever chosen: browsers send an empty part with an empty filename.
      parts.push(encode(`${disposition}; filename=""\r\nContent-Type: application/octet-stream\r\n\r\n\r\n`));
    }
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

function textPlain(list: Entry[]): string {
  return list.map(([name, value]) => `${name}=${typeof value === 'string' ? value : ''}\r\n`).join('');
}

/**
 * The first field that would stop a browser from sending the form: `required` and empty (a text
 * field, a select whose chosen value is empty, an unchecked checkbox, a radio group with none
 * checked). Other constraints (pattern, min, type) are left to the server.
 */
function missingRequired(form: Element): Element | null {
  for (const el of formElements(form)) {
    if (!el.hasAttribute('required') || isDisabled(el) || el.hasAttribute('readonly')) continue;
    const tag = el.localName;
    if (tag === 'select') {
      if (!selectedOptions(el).some((o) => optionValue(o) !== '')) return el;
    } else if (tag === 'textarea') {
      if (!(el.textContent ?? '')) return el;
    } else if (tag === 'input') {
      const type = inputType(el);
      if (type === 'checkbox') {
        if (!el.hasAttribute('checked')) return el;
      } else if (type === 'radio') {
        const name = el.getAttribute('name');
        const group = formElements(form).filter((o) => o.localName === 'input' && inputType(o) === 'radio' && o.getAttribute('name') === name);
        if (!group.some((o) => o.hasAttribute('checked'))) return el;
      } else if (!['hidden', 'submit', 'image', 'reset', 'button', 'range', 'color'].includes(type) && inputValue(el) === '') {
        return el;
      }
    }
  }
  return null;
}

/**
 * The request submitting `form` with `submitter` (null: implicit submission without a button).
 * Forms that a script handles (`onsubmit`, a `javascript:` action, `method=dialog`) need a browser.
 */
export function submission(form: Element, submitter: Element | null): FormRequest {
  if (form.hasAttribute('onsubmit')) throw needsBrowser(`submitting ${describeElement(form)}, which runs a script on submit`);
  const attr = (name: string, formName: string) => (submitter?.hasAttribute(formName) ? submitter.getAttribute(formName) : form.getAttribute(name));
  const rawAction = (attr('action', 'formaction') ?? '').trim();
  const doc = form.ownerDocument;
  // An empty action submits to the document's own URL (not the base URL).
  const action = rawAction === '' ? documentUrl(doc) : resolveAgainstBase(form, rawAction);
  let url: URL;
  try {
    url = new URL(action, baseUrl(doc));
  } catch {
    throw new GleanerError('BAD_REQUEST', `${describeElement(form)} submits to an invalid URL: ${rawAction.slice(0, 200)}`);
  }
  if (url.protocol === 'javascript:') throw needsBrowser(`submitting ${describeElement(form)}, whose action is a script`);
  const method = (attr('method', 'formmethod') ?? '').trim().toLowerCase();
  if (method === 'dialog') throw needsBrowser(`submitting ${describeElement(form)}, which closes a dialog`);
  // Browsers check required fields before sending, scripts or not (unless novalidate/formnovalidate).
  if (!form.hasAttribute('novalidate') && !submitter?.hasAttribute('formnovalidate')) {
    const missing = missingRequired(form);
    if (missing) throw new GleanerError('BAD_REQUEST', `the form was not sent: ${describeElement(missing)} is required; fill it in first`);
  }
  const list = entries(form, submitter);
  const encode = formEncoder(form.getAttribute('accept-charset'), documentCharset(doc));
  if (method !== 'post') {
    url.search = `?${urlencoded(list, encode)}`; // replaces the action's query (an empty form still ends in '?')
    return { url: url.href, method: 'GET' };
  }
  const enctype = (attr('enctype', 'formenctype') ?? '').trim().toLowerCase();
  if (enctype === 'multipart/form-data') return { url: url.href, method: 'POST', ...multipart(list, encode) };
  if (enctype === 'text/plain') return { url: url.href, method: 'POST', body: encode(textPlain(list)), contentType: 'text/plain' };
  return { url: url.href, method: 'POST', body: Buffer.from(urlencoded(list, encode), 'latin1'), contentType: 'application/x-www-form-urlencoded' };
}

/** Whether a select may take every value asked (`multiple` for more than one). */
export function assertSelectable(select: Element, count: number): void {
  if (count > 1 && !isMultiple(select)) {
    throw new GleanerError('BAD_REQUEST', `${describeElement(select)} takes one value, ${count} were given`);
  }
}
