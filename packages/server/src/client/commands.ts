/**
 * The scripting commands — `gleaner extract`, `gleaner markdown`, `gleaner run`, `gleaner usage` — which call a
 * running server over HTTP (`--server` / GLEANER_SERVER, key in GLEANER_API_KEY), so they work from
 * any machine. Results go to stdout (JSON Lines, or the page's Markdown), progress and errors to stderr.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { InvalidArgumentError, type Command } from 'commander';
import { FINISHED_RUN_STATUSES, GleanerError, loadConfig } from '@gleaner/core';
import { createApiClient, type ApiClient } from './api-client.ts';
import { createProgress } from './progress.ts';

export interface ServerOption {
  server?: string;
}

export function client(o: ServerOption): ApiClient {
  const config = loadConfig({ options: { client: { server: o.server } } });
  return createApiClient({ server: config.client.server, apiKey: config.client.apiKey });
}

export function positiveInt(name: string, max = Number.MAX_SAFE_INTEGER) {
  return (v: string) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1 || n > max) throw new InvalidArgumentError(`${name} must be an integer from 1 to ${max}`);
    return n;
  };
}

/** `name[:type][:description]` -> an attribute; the description may itself contain colons. */
export function parseAttr(value: string, previous: Array<Record<string, string>> = []): Array<Record<string, string>> {
  const [name, type, ...rest] = value.split(':');
  if (!name.trim()) throw new InvalidArgumentError('--attr takes name[:type][:description], e.g. price:number:"price in EUR"');
  const attr: Record<string, string> = { name: name.trim() };
  if (type?.trim()) attr.type = type.trim();
  if (rest.length) attr.description = rest.join(':').trim();
  return [...previous, attr];
}

function nonNegative(name: string) {
  return (v: string) => {
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError(`${name} must be a number of at least 0`);
    return n;
  };
}

interface ExtractCliOptions extends ServerOption {
  attr?: unknown[];
  prompt?: string;
  mode?: string;
  maxPages?: number;
  proxyCountry?: string;
  json?: boolean;
  provenance?: boolean;
  grounding?: string;
  dryRun?: boolean;
  maxCredits?: number;
  maxTokens?: number;
  profile?: string;
}

interface UsageReportBody {
  items: Array<Record<string, unknown>>;
  totals: Record<string, unknown>;
}

const writeLine = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

/** A URL of the --urls file and the file's line it is on (what a report about it names). */
interface UrlLine {
  url: string;
  line: number;
}

/** URLs of a file (or stdin for "-"), one a line; blank lines and # comments are skipped. */
async function readUrls(file: string): Promise<UrlLine[]> {
  const input = file === '-' ? process.stdin : createReadStream(file);
  const urls: UrlLine[] = [];
  let line = 0;
  for await (const text of createInterface({ input, crlfDelay: Infinity })) {
    line++;
    const url = text.trim();
    if (url && !url.startsWith('#')) urls.push({ url, line });
  }
  return urls;
}

/** The batch's entries a 422 names (`body.url.<index>`) with the reason, or null when it names something else. */
function refusedUrls(err: unknown, batch: UrlLine[]): Map<UrlLine, string> | null {
  if (!(err instanceof GleanerError) || err.code !== 'VALIDATION_FAILED' || !Array.isArray(err.details)) return null;
  const refused = new Map<UrlLine, string>();
  for (const issue of err.details as Array<{ loc?: unknown[]; msg?: string }>) {
    const [where, field, index] = issue.loc ?? [];
    const entry = where === 'body' && field === 'url' && typeof index === 'number' ? batch[index] : undefined;
    if (!entry) return null;
    refused.set(entry, issue.msg ?? 'invalid URL');
  }
  return refused.size ? refused : null;
}

interface RunOptions extends ServerOption {
  scraper: string;
  urls?: string;
  batch: number;
  pollMs: number;
  provenance?: boolean;
  profile?: string;
}

interface RunStatus {
  run_id: string;
  status: string;
  completed: number;
  total: number;
  data?: Record<string, unknown[]>;
  errors?: Record<string, string>;
}

const FINISHED = new Set<string>(FINISHED_RUN_STATUSES);

/**
 * Submits the URLs as run_async batches, follows them to the end and writes one JSON line per URL
 * as each batch finishes. Returns the number of URLs that failed.
 */
async function runScraper(o: RunOptions): Promise<number> {
  const api = client(o);
  const source = o.urls === '-' ? 'standard input' : o.urls;
  const urls = o.urls ? await readUrls(o.urls) : null;
  if (urls && !urls.length) throw new InvalidArgumentError(`no URLs in ${source}`);
  const batches: Array<UrlLine[] | null> = [];
  if (!urls)
    batches.push(null); // the scraper's own URL
  else for (let i = 0; i < urls.length; i += o.batch) batches.push(urls.slice(i, i + o.batch));

  let failed = 0;
  const runs: Array<{ id: string; urls: string[] | null; status: RunStatus }> = [];
  for (let batch of batches) {
    // A URL the server refuses is reported with its line of the file and left out; the others run.
    for (;;) {
      if (batch && !batch.length) break;
      const body: { template_id: string; source: string; url?: string[]; provenance?: true; profile?: string } = batch
        ? { template_id: o.scraper, url: batch.map((u) => u.url), source: 'cli' }
        : { template_id: o.scraper, source: 'cli' };
      if (o.provenance) body.provenance = true;
      if (o.profile) body.profile = o.profile;
      try {
        const started = await api.call<RunStatus>('POST', '/v1/scrapers/run_async', body);
        const first = batch?.[0]?.line;
        const lines = batch ? ` (${batch.length} URL${batch.length === 1 ? '' : 's'} from line ${first})` : " (the scraper's own URL)";
        process.stderr.write(`scraper ${o.scraper}: run ${started.run_id} started${lines}\n`);
        runs.push({ id: started.run_id, urls: body.url ?? null, status: { ...started, completed: 0, total: batch?.length ?? 1 } });
        break;
      } catch (err) {
        const refused = batch && refusedUrls(err, batch);
        if (!refused) throw err;
        for (const [entry, why] of refused) {
          failed++;
          process.stderr.write(`${source}:${entry.line}: ${why}\n`);
          writeLine({ url: entry.url, status: 'failed', error: `line ${entry.line}: ${why}`, line: entry.line });
        }
        batch = batch!.filter((u) => !refused.has(u));
      }
    }
  }
  if (!runs.length) return failed;
  const progress = createProgress(process.stderr, `scraper ${o.scraper}`);
  const pending = new Set(runs);
  const report = () => {
    const done = runs.reduce((n, r) => n + r.status.completed, 0);
    const total = runs.reduce((n, r) => n + r.status.total, 0);
    progress.update(done, total, failed);
  };
  report();
  while (pending.size) {
    await sleep(o.pollMs);
    for (const run of pending) {
      run.status = await api.call<RunStatus>('GET', `/v1/scrapers/run_async/${encodeURIComponent(run.id)}`);
      if (!FINISHED.has(run.status.status)) continue;
      pending.delete(run);
      const errors = run.status.errors ?? {};
      for (const url of run.urls ?? Object.keys(run.status.data ?? {})) {
        if (errors[url] !== undefined) {
          failed++;
          writeLine({ url, status: 'failed', error: errors[url], run_id: run.id });
        } else writeLine({ url, status: 'completed', data: run.status.data?.[url] ?? [], run_id: run.id });
      }
    }
    report();
  }
  progress.finish();
  return failed;
}

/** Adds the scripting commands to the `gleaner` program. */
export function registerScriptingCommands(program: Command): void {
  const serverOption = '--server <url>';
  const serverHelp = 'Gleaner server (GLEANER_SERVER, default http://127.0.0.1:8080); key in GLEANER_API_KEY';
  const profileOption = '--profile <name>';
  const profileHelp = 'sign in with one of your browser profiles (its cookies and local storage; see GET /v1/profiles)';

  program
    .command('extract')
    .description('extract records from a page through a running server; prints one JSON record per line')
    .argument('<url>')
    .option(
      '--attr <name[:type][:description]>',
      'an attribute to extract (repeatable); type: string, number, integer, bool, list, object, image, any',
      parseAttr,
    )
    .option('--prompt <text>', 'free-text instructions (enough on their own without --attr)')
    .option('--mode <mode>', 'standard (default), precision or code')
    .option('--max-pages <n>', 'follow pagination up to N pages', positiveInt('--max-pages'))
    .option('--proxy-country <code>', 'fetch through a proxy of this country (see GET /v1/proxy-countries)')
    .option('--json', 'print the whole response (records, credits, driver, ...) as one JSON document')
    .option('--provenance', "add each value's provenance to its record (_provenance)")
    .option('--grounding <policy>', 'values the page does not support: keep, flag (warnings on stderr) or drop')
    .option('--dry-run', 'print what the extraction would cost (pages, model calls, tokens, credits, money); extract nothing')
    .option('--max-credits <n>', 'refuse or stop the extraction past this many credits', nonNegative('--max-credits'))
    .option('--max-tokens <n>', 'refuse or stop the extraction past this many model tokens', nonNegative('--max-tokens'))
    .option(profileOption, profileHelp)
    .option(serverOption, serverHelp)
    .action(async (url: string, o: ExtractCliOptions) => {
      const body: Record<string, unknown> = { url, source: 'cli' };
      if (o.attr) body.attributes = o.attr;
      if (o.prompt) body.prompt = o.prompt;
      if (o.mode) body.mode = o.mode;
      if (o.maxPages) Object.assign(body, { enable_pagination: o.maxPages > 1, max_pages: o.maxPages });
      if (o.proxyCountry) body.proxy_country = o.proxyCountry;
      if (o.provenance) body.provenance = true;
      if (o.grounding) body.grounding = o.grounding;
      if (o.dryRun) body.dry_run = true;
      if (o.maxCredits !== undefined) body.max_credits = o.maxCredits;
      if (o.maxTokens !== undefined) body.max_tokens = Math.floor(o.maxTokens);
      if (o.profile) body.profile = o.profile;
      // --json: the whole response, with the extraction's details (driver, pages, tokens, credits).
      const result = await client(o).call<{ data: unknown[]; estimate?: unknown; warnings?: Array<{ record: number | null; field: string; msg: string }> }>(
        'POST',
        o.json && !o.dryRun ? '/v1/extract?details=true' : '/v1/extract',
        body,
      );
      if (o.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      else if (o.dryRun) writeLine(result.estimate);
      else for (const record of result.data ?? []) writeLine(record);
      if (!o.json) for (const w of result.warnings ?? []) process.stderr.write(`warning: record ${w.record ?? '(dropped)'} field ${w.field}: ${w.msg}\n`);
    });

  program
    .command('usage')
    .description('print your usage (pages, model calls, tokens, credits, money) grouped by day, scraper or kind')
    .option('--from <date>', 'start (a date or ISO date-time; default the start of this month, UTC)')
    .option('--to <date>', 'end, exclusive (default now)')
    .option('--group-by <key>', 'day (default), scraper or kind')
    .option('--json', 'print the whole report as one JSON document')
    .option(serverOption, serverHelp)
    .action(async (o: ServerOption & { from?: string; to?: string; groupBy?: string; json?: boolean }) => {
      const query = new URLSearchParams();
      if (o.from) query.set('from', o.from);
      if (o.to) query.set('to', o.to);
      if (o.groupBy) query.set('group_by', o.groupBy);
      const report = await client(o).call<UsageReportBody>('GET', `/v1/usage${query.size ? `?${query}` : ''}`);
      if (o.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      else {
        for (const item of report.items) writeLine(item);
        writeLine({ key: 'total', ...report.totals });
      }
    });

  program
    .command('markdown')
    .description('print a page as Markdown, read through a running server')
    .argument('<url>')
    .option('--proxy-country <code>', 'fetch through a proxy of this country')
    .option('--main', "only the page's main content (no navigation, header, footer, sidebars, related content)")
    .option(profileOption, profileHelp)
    .option(serverOption, serverHelp)
    .action(async (url: string, o: ServerOption & { proxyCountry?: string; main?: boolean; profile?: string }) => {
      const result = await client(o).call<{ data: string }>('POST', '/v1/extract_markdown', {
        url,
        ...(o.proxyCountry ? { proxy_country: o.proxyCountry } : {}),
        ...(o.main ? { only_main_content: true } : {}),
        ...(o.profile ? { profile: o.profile } : {}),
      });
      process.stdout.write(result.data.endsWith('\n') ? result.data : `${result.data}\n`);
    });

  program
    .command('run')
    .description('run a ready scraper over URLs (run_async batches); prints one JSON line per URL, progress on stderr')
    .requiredOption('--scraper <id>', 'the scraper (template_id)')
    .option('--urls <file|->', "a file of URLs, one a line ('-': standard input); without it the scraper's own URL")
    .option('--batch <n>', 'URLs per run (at most 100)', positiveInt('--batch', 100), 100)
    .option('--poll-ms <ms>', 'how often to ask for progress', positiveInt('--poll-ms'), 1000)
    .option('--provenance', "add each value's provenance (its recipe rule, page URL and hash) to its record (_provenance)")
    .option(profileOption, profileHelp)
    .option(serverOption, serverHelp)
    .action(async (o: RunOptions) => {
      const failed = await runScraper(o);
      // Some URLs failed: the lines say which; the exit status lets a script notice.
      if (failed) process.exitCode = 3;
    });

  program
    .command('map')
    .description("list a site's URLs (sitemaps and links) through a running server; one JSON line per URL {url, source, found_in}")
    .argument('<url>')
    .option('--limit <n>', 'URLs at most', positiveInt('--limit', 10_000))
    .option('--include <regex>', 'only URLs whose path matches (repeatable)', (v: string, p: string[] = []) => [...p, v])
    .option('--exclude <regex>', 'leave out URLs whose path matches (repeatable)', (v: string, p: string[] = []) => [...p, v])
    .option('--sitemap <mode>', 'include (default), only or skip')
    .option('--all-domains', "list other sites' URLs too (never followed)")
    .option('--urls-only', 'print bare URLs, one a line')
    .option(serverOption, serverHelp)
    .action(
      async (
        url: string,
        o: ServerOption & { limit?: number; include?: string[]; exclude?: string[]; sitemap?: string; allDomains?: boolean; urlsOnly?: boolean },
      ) => {
        const body: Record<string, unknown> = { url };
        if (o.limit) body.limit = o.limit;
        if (o.include) body.include = o.include;
        if (o.exclude) body.exclude = o.exclude;
        if (o.sitemap) body.sitemap = o.sitemap;
        if (o.allDomains) body.same_domain = false;
        const result = await client(o).call<{ urls: Array<{ url: string }>; sitemaps: string[]; pages_visited: number }>('POST', '/v1/map', body);
        for (const u of result.urls) o.urlsOnly ? process.stdout.write(`${u.url}\n`) : writeLine(u);
        process.stderr.write(`${result.urls.length} URLs (${result.sitemaps.length} sitemaps read, ${result.pages_visited} pages visited)\n`);
      },
    );
}
