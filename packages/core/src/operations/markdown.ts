import type { Owner } from '../auth/owners.ts';
import type { OperationContext } from '../context.ts';
import { checkHttpUrl, normalizeCookieInput, normalizeProxyCountry } from '../schemas/normalize.ts';
import { validationFailed, type ValidationIssue } from '../errors.ts';
import { openBrowser } from '../extract/acquire.ts';
import { htmlToMarkdown } from '../page/index.ts';
import { emptyUsage, recordUsage } from '../usage.ts';
import { archiveSourcePages, archiveStore, keepsSnapshots, type SnapshotRef } from '../snapshots/archive.ts';
import { checkProfile, profileField } from '../profiles/index.ts';
import { looksSignedOut, withProfile } from '../profiles/refresh.ts';

/** POST /v1/extract_markdown: the page as clean markdown (no model involved). */
export async function extractMarkdown(
  ctx: OperationContext,
  owner: Owner,
  body: Record<string, any>,
  signal?: AbortSignal,
): Promise<{ data: string; snapshots?: SnapshotRef[] }> {
  const issues: ValidationIssue[] = [];
  const url = checkHttpUrl(body.url, ['body', 'url'], issues);
  const proxyCountry = normalizeProxyCountry(body.proxy_country, ctx.config, issues);
  const cookies = normalizeCookieInput(body.cookies, url, issues);
  const onlyMainContent = body.only_main_content ?? false;
  if (typeof onlyMainContent !== 'boolean') issues.push({ loc: ['body', 'only_main_content'], msg: 'Input should be a valid boolean', type: 'bool_type' });
  const profile = profileField(body.profile, ['body', 'profile'], issues);
  if (issues.length) throw validationFailed(issues);
  await checkProfile(ctx, owner.id, profile);
  const keep = await keepsSnapshots(ctx.db, owner.id, body.snapshots, 'extractions');
  // With a profile: its cookies and local storage; a page that looks signed out refreshes it once.
  const page = await withProfile(
    ctx,
    owner.id,
    profile,
    cookies,
    async (cookies, localStorage) => {
      const browser = await openBrowser(ctx, { proxyCountry, cookies, localStorage, signal });
      try {
        return await browser.goto(url!);
      } finally {
        await browser.close();
      }
    },
    (p) => looksSignedOut(p, url!),
    signal,
  );
  const markdown = htmlToMarkdown(page.html, { url: page.finalUrl, onlyMainContent: onlyMainContent === true });
  const kept = keep
    ? await archiveSourcePages(archiveStore(ctx), owner.id, 'extract_markdown', null, [
        { url: page.finalUrl, driver: page.driver, html: page.html, body: page.body, charset: page.charset },
      ])
    : null;
  await recordUsage(ctx.db, { ownerId: owner.id, operation: 'extract_markdown', subject: url, pages: 1, usage: emptyUsage(), credits: 0 });
  return kept ? { data: markdown, snapshots: kept } : { data: markdown };
}
