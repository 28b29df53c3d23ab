/**
 * A task's domain policy (`allowed_domains`, a Gleaner extension on agent tasks and agentic builds):
 * the agent may navigate, and clicks may lead, only to these hosts and their subdomains. Checked
 * before a navigation and before a click on a link; a page that still ends up elsewhere (a script's
 * redirect) is left at once and the model is told. This is on top of the SSRF guard, which every
 * navigation still passes.
 */
import { GleanerError } from '../errors.ts';
import type { ValidationIssue } from '../errors.ts';

/** Lower-case host names; a leading "*." or "." is dropped (subdomains are always allowed). */
export function normalizeAllowedDomains(value: unknown, loc: Array<string | number>, issues: ValidationIssue[]): string[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || value.length === 0 || value.length > 50) {
    issues.push({ loc, msg: 'allowed_domains is a list of 1 to 50 host names, e.g. ["example.com"]', type: 'value_error' });
    return null;
  }
  const out: string[] = [];
  value.forEach((d, i) => {
    const host =
      typeof d === 'string'
        ? d
            .trim()
            .toLowerCase()
            .replace(/^\*?\./, '')
            .replace(/\.$/, '')
        : '';
    if (!/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/.test(host) && !/^\d{1,3}(\.\d{1,3}){3}$/.test(host))
      issues.push({
        loc: [...loc, i],
        msg: `"${String(d).slice(0, 100)}" is not a host name (give e.g. "example.com", without scheme or path)`,
        type: 'value_error',
      });
    else out.push(host);
  });
  return out;
}

/** True when the URL's host is one of `domains` or under one of them (null: no policy). */
export function domainAllowed(url: string, domains: readonly string[] | null | undefined): boolean {
  if (!domains) return true;
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  return domains.some((d) => host === d || host.endsWith(`.${d}`));
}

/** The error the model (or the caller) is given for a URL outside the policy. */
export function domainRefused(url: string, domains: readonly string[]): GleanerError {
  let host = url;
  try {
    host = new URL(url).hostname;
  } catch {
    /* the URL as given */
  }
  return new GleanerError('BAD_REQUEST', `${host} is outside this task's allowed_domains (${domains.join(', ')}); stay on those sites`);
}

/** The start URL must be inside the policy: a 422 issue otherwise. */
export function checkStartDomain(url: string | null, domains: string[] | null, issues: ValidationIssue[]): void {
  if (url && domains && !domainAllowed(url, domains))
    issues.push({ loc: ['body', 'allowed_domains'], msg: `the start URL's host is not in allowed_domains (${domains.join(', ')})`, type: 'value_error' });
}
