/**
 * The scripting commands — `gleaner extract`, `gleaner markdown`, `gleaner run` — which call a
 * running server over HTTP (`--server` / GLEANER_SERVER, key in GLEANER_API_KEY), so they work from
 * any machine. Results go to stdout (JSON Lines, or the page's Markdown), progress and errors to stderr.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { InvalidArgumentError, type Command } from 'commander';
import { loadConfig } from '@gleaner/core';
import { createApiClient, type ApiClient } from './api-client.ts';
import { createProgress } from './progress.ts';

interface ServerOption {
  server?: string;
}

function client(o: ServerOption): ApiClient {
  const config = loadConfig({ options: { client: { server: o.server } } });
  return createApiClient({ server: config.client.server, apiKey: config.client.apiKey });
}

function positiveInt(name: string, max = Number.MAX_SAFE_INTEGER) {
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

const writeLine = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

/** URLs of a file (or stdin for "-"), one a line; blank lines and # comments are skipped. */
async function readUrls(file: string): Promise<string[]> {
  const input = file === '-' ? process.stdin : createReadStream(file);
  const urls: string[] = [];
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    const url = line.trim();
    if (url && !url.startsWith('#')) urls.push(url);
  }
  return urls;
}

interface RunOptions extends ServerOption {
  scraper: string;
  urls?: string;
  batch: number;
  pollMs: number;
}

interface RunStatus {
  run_id: string;
  status: string;
  completed: number;
  total: number;
  data?: Record<string, unknown[]>;
  errors?: Record<string, string>;
}

const FINISHED = new Set(['completed', 'completed_partial', 'failed']);

/**
 * Submits the URLs as run_async batches, follows them to the end and writes one JSON line per URL
 * as each batch finishes. Returns the number of URLs that failed.
 */
async function runScraper(o: RunOptions): Promise<number> {
  const api = client(o);
  const urls = o.urls ? await readUrls(o.urls) : null;
  if (urls && !urls.length) throw new InvalidArgumentError(`no URLs in ${o.urls === '-' ? 'standard input' : o.urls}`);
  const batches: Array<string[] | null> = [];
  if (!urls)
    batches.push(null); // the scraper's own URL
  else for (let i = 0; i < urls.length; i += o.batch) batches.push(urls.slice(i, i + o.batch));

  const runs: Array<{ id: string; urls: string[] | null; status: RunStatus }> = [];
  for (const batch of batches) {
    const body = batch ? { template_id: o.scraper, url: batch, source: 'cli' } : { template_id: o.scraper, source: 'cli' };
    const started = await api.call<RunStatus>('POST', '/v1/scrapers/run_async', body);
    runs.push({ id: started.run_id, urls: batch, status: { ...started, completed: 0, total: batch?.length ?? 1 } });
  }
  const progress = createProgress(process.stderr, `run ${o.scraper}`);
  let failed = 0;
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
    .option(serverOption, serverHelp)
    .action(
      async (url: string, o: ServerOption & { attr?: unknown[]; prompt?: string; mode?: string; maxPages?: number; proxyCountry?: string; json?: boolean }) => {
        const body: Record<string, unknown> = { url, source: 'cli' };
        if (o.attr) body.attributes = o.attr;
        if (o.prompt) body.prompt = o.prompt;
        if (o.mode) body.mode = o.mode;
        if (o.maxPages) Object.assign(body, { enable_pagination: o.maxPages > 1, max_pages: o.maxPages });
        if (o.proxyCountry) body.proxy_country = o.proxyCountry;
        const result = await client(o).call<{ data: unknown[] }>('POST', '/v1/extract', body);
        if (o.json) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
        else for (const record of result.data ?? []) writeLine(record);
      },
    );

  program
    .command('markdown')
    .description('print a page as Markdown, read through a running server')
    .argument('<url>')
    .option('--proxy-country <code>', 'fetch through a proxy of this country')
    .option('--main', "only the page's main content (no navigation, header, footer, sidebars, related content)")
    .option(serverOption, serverHelp)
    .action(async (url: string, o: ServerOption & { proxyCountry?: string; main?: boolean }) => {
      const result = await client(o).call<{ data: string }>('POST', '/v1/extract_markdown', {
        url,
        ...(o.proxyCountry ? { proxy_country: o.proxyCountry } : {}),
        ...(o.main ? { only_main_content: true } : {}),
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
    .option(serverOption, serverHelp)
    .action(async (o: RunOptions) => {
      const failed = await runScraper(o);
      // Some URLs failed: the lines say which; the exit status lets a script notice.
      if (failed) process.exitCode = 3;
    });
}
