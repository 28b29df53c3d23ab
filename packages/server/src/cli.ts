#!/usr/bin/env node
// The `gleaner` command: serve, worker, migrate, keys, tokens, webhooks, catalog, and the scripting
// commands (extract, markdown, run) that call a running server.
import { Command, InvalidArgumentError, Option } from 'commander';
import { createLogger, GleanerError, loadConfig, type ConfigOptions, type Logger } from '@gleaner/core';
import { openRuntime, type Runtime } from './runtime.ts';
import { startAgents, startApi, startMetricsListener, type Listener } from './server.ts';
import { startupWiring } from './wiring.ts';
import { registerScriptingCommands } from './client/commands.ts';
import { registerScheduleCommands } from './client/schedules.ts';
import { VERSION } from './version.ts';

function int(name: string) {
  return (v: string) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`${name} must be a non-negative integer`);
    return n;
  };
}

/** Loads configuration and a logger; CLI output commands log to stderr so stdout carries only their result. */
function setup(options: ConfigOptions, toStderr: boolean): { config: ReturnType<typeof loadConfig>; logger: Logger } {
  const config = loadConfig({ options });
  const logger = createLogger({
    level: toStderr && config.log.level === 'info' ? 'warn' : config.log.level,
    destination: toStderr ? 2 : 1,
    format: config.log.format,
  });
  return { config, logger };
}

/** Runs a short command against the store and prints its result on stdout. */
async function withStore(fn: (rt: Runtime) => Promise<string>): Promise<void> {
  const { config, logger } = setup({}, true);
  const rt = await openRuntime({ config, logger, jobs: false });
  try {
    process.stdout.write(`${await fn(rt)}\n`);
  } finally {
    await rt.close();
  }
}

/** One signal sent to a process group can arrive twice (make forwards its own copy to its child). */
const DUPLICATE_SIGNAL_MS = 1_000;

/**
 * Waits for SIGTERM/SIGINT, then stops in order. A second signal skips the graceful part but still
 * stops the embedded Postgres this process owns (`abort`) before exiting: leaving it running
 * orphaned is what a process manager's SIGTERM to the whole group used to do.
 */
function onShutdown(logger: Logger, stop: () => Promise<void>, abort: () => Promise<void> = async () => {}): void {
  let first: { signal: string; at: number } | null = null;
  const handler = (signal: string) => {
    if (first) {
      if (signal === first.signal && Date.now() - first.at < DUPLICATE_SIGNAL_MS) return;
      logger.warn({ signal }, 'second signal: stopping the embedded Postgres (if ours) and exiting now');
      abort().finally(() => process.exit(1));
      return;
    }
    first = { signal, at: Date.now() };
    logger.info({ signal }, 'shutting down');
    stop().then(
      () => process.exit(0),
      (err) => {
        logger.error({ err: (err as Error).message }, 'shutdown failed');
        abort().finally(() => process.exit(1));
      },
    );
  };
  process.on('SIGTERM', () => handler('SIGTERM'));
  process.on('SIGINT', () => handler('SIGINT'));
}

const program = new Command('gleaner')
  .description('Gleaner: self-hosted web data extraction')
  .version(`gleaner ${VERSION} (Node ${process.versions.node})`, '-V, --version', 'print the version')
  .showHelpAfterError();

program
  .command('serve')
  .description('run the API (and, unless --no-worker, a worker) in this process')
  .option('--port <n>', 'API port (GLEANER_PORT, default 8080)', int('port'))
  .option('--agents-port <n>', 'legacy agents interface port (GLEANER_AGENTS_PORT, default 8081)', int('agents-port'))
  .option('--host <addr>', 'address to bind (GLEANER_HOST, default 0.0.0.0)')
  .option('--no-worker', 'do not run a worker in this process')
  .action(async (o: { port?: number; agentsPort?: number; host?: string; worker: boolean }) => {
    const options: ConfigOptions = { server: { port: o.port, agentsPort: o.agentsPort, host: o.host } };
    if (o.worker === false) options.worker = { enabled: false };
    const { config, logger } = setup(options, false);
    const rt = await openRuntime({ config, logger, jobs: true }, await startupWiring(config, logger));
    let api: Listener | null = null;
    let agents: Listener | null = null;
    onShutdown(
      logger,
      async () => {
        await Promise.all([api?.close(), agents?.close()]);
        await rt.close();
      },
      () => rt.abort(),
    );
    if (config.worker.enabled) await rt.engine.startWorker();
    try {
      api = await startApi(rt.engine, logger, { host: config.server.host, port: config.server.port });
      agents = await startAgents(rt.engine, logger, { host: config.server.host, port: config.server.agentsPort, apiPort: api.port });
    } catch (err) {
      // e.g. a port in use: stop what started (the embedded Postgres included) before exiting.
      await Promise.all([api?.close(), agents?.close()]);
      await rt.close();
      throw err;
    }
  });

program
  .command('worker')
  .description('run a worker only (any number, on any machine sharing the Postgres)')
  .action(async () => {
    const { config, logger } = setup({}, false);
    const rt = await openRuntime({ config, logger, jobs: true }, await startupWiring(config, logger));
    let metrics: Listener | null = null;
    onShutdown(
      logger,
      async () => {
        await metrics?.close();
        await rt.close();
      },
      () => rt.abort(),
    );
    await rt.engine.startWorker();
    const { mode, workerPort } = config.metrics;
    if (mode !== 'disabled' && workerPort) metrics = await startMetricsListener(rt.engine, logger, { host: config.server.host, port: workerPort });
  });

program
  .command('migrate')
  .description('apply database migrations (the engine also applies them at start)')
  .action(async () => {
    const { config, logger } = setup({}, true);
    const rt = await openRuntime({ config, logger, jobs: true });
    await rt.close();
    process.stderr.write(`migrations applied to schema ${config.database.schema}\n`);
  });

const keys = program.command('keys').description('API keys');
keys
  .command('create')
  .description('create an API key for an owner (created if new); prints only the key')
  .requiredOption('--owner <name>', 'owner name')
  .action((o: { owner: string }) => withStore(async (rt) => (await rt.engine.createApiKey(o.owner)).key));
keys
  .command('revoke')
  .description('revoke an API key by its prefix (glk_XXXXXXXX) or the whole key')
  .argument('<prefix>')
  .action((prefix: string) =>
    withStore(async (rt) => {
      if (!(await rt.engine.revokeApiKey(prefix))) throw new GleanerError('NOT_FOUND', `no active API key with prefix ${prefix}`);
      return `revoked ${prefix}`;
    }),
  );

program
  .command('tokens')
  .description('bearer access tokens')
  .command('create')
  .description('create a bearer access token for an owner; prints only the token')
  .requiredOption('--owner <name>', 'owner name')
  .option('--ttl <seconds>', 'lifetime in seconds (GLEANER_TOKEN_TTL_SECONDS, default 3600)', int('ttl'))
  .action((o: { owner: string; ttl?: number }) => withStore(async (rt) => (await rt.engine.createAccessToken(o.owner, o.ttl)).token));

program
  .command('webhooks')
  .description('callback signing')
  .command('secret')
  .description("print the owner's callback signing secret (whsec_...)")
  .requiredOption('--owner <name>', 'owner name')
  .action((o: { owner: string }) => withStore((rt) => rt.engine.signingSecret(o.owner)));

program
  .command('politeness')
  .description("an owner's politeness: robots.txt and the pace per host (requests cannot change these)")
  .command('set')
  .description("set an owner's robots.txt rule and pace; 'default' puts a setting back to the server's")
  .requiredOption('--owner <name>', 'owner name')
  .option('--robots <rule>', 'respect, ignore or default')
  .option('--concurrency <n>', 'requests to one host at once (1-64), or default')
  .option('--delay-ms <ms>', 'minimum time between request starts at one host, or default')
  .action((o: { owner: string; robots?: string; concurrency?: string; delayMs?: string }) =>
    withStore(async (rt) => {
      const settings: Parameters<typeof rt.engine.setPoliteness>[1] = {};
      const num = (v: string, name: string, min: number, max: number) => {
        if (v === 'default') return null;
        const n = Number(v);
        if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`${name} must be an integer from ${min} to ${max}, or default`);
        return n;
      };
      if (o.robots !== undefined) {
        if (!['respect', 'ignore', 'default'].includes(o.robots)) throw new InvalidArgumentError('--robots takes respect, ignore or default');
        settings.respectRobots = o.robots === 'default' ? null : o.robots === 'respect';
      }
      if (o.concurrency !== undefined) settings.concurrency = num(o.concurrency, '--concurrency', 1, 64);
      if (o.delayMs !== undefined) settings.delayMs = num(o.delayMs, '--delay-ms', 0, 600_000);
      const s = await rt.engine.setPoliteness(o.owner, settings);
      const show = (v: unknown) => (v === null ? 'default' : String(v));
      return `robots ${s.respectRobots === null ? 'default' : s.respectRobots ? 'respect' : 'ignore'}, concurrency ${show(s.concurrency)}, delay-ms ${show(s.delayMs)}`;
    }),
  );

/** A repeatable "A|B" option: split at the first '|'. */
function pairs(option: string, parts: string) {
  return (value: string, previous: string[][] | undefined): string[][] => {
    const at = value.indexOf('|');
    if (at <= 0 || at === value.length - 1) throw new InvalidArgumentError(`${option} takes "${parts}", two parts separated by '|'`);
    return [...(previous ?? []), [value.slice(0, at).trim(), value.slice(at + 1).trim()]];
  };
}

function jsonObject(value: string): Record<string, unknown> {
  try {
    const v = JSON.parse(value);
    if (v && typeof v === 'object' && !Array.isArray(v)) return v;
  } catch {
    /* reported below */
  }
  throw new InvalidArgumentError('must be a JSON object, e.g. \'{"url": "https://example.com/"}\'');
}

interface PublishOptions {
  scraper: string;
  slug: string;
  title: string;
  description: string;
  niche?: string;
  useCase?: string;
  longDescription?: string;
  valueProposition?: string;
  sampleUrl?: string;
  sampleInput?: Record<string, unknown>;
  faq?: string[][];
  article?: string[][];
}

const catalog = program.command('catalog').description('the public catalog of scraper APIs (GET /v1/scraper-apis)');
catalog
  .command('publish')
  .description(
    'publish a ready scraper as a public scraper API (a snapshot of it); re-publishing a slug of the same owner updates it, keeping omitted optional fields',
  )
  .requiredOption('--scraper <id>', 'the scraper (template_id) to publish; it must be ready')
  .requiredOption('--slug <slug>', 'URL-safe identifier: lower-case letters, digits and single hyphens')
  .requiredOption('--title <text>', 'title')
  .requiredOption('--description <text>', 'one-paragraph description')
  .option('--niche <text>', 'niche (e.g. "E-commerce")')
  .option('--use-case <text>', 'use case')
  .option('--long-description <text>', 'long description')
  .option('--value-proposition <text>', 'value proposition')
  .option('--sample-url <url>', "sample page (default: the scraper's URL)")
  .option('--sample-input <json>', 'sample run input (default: {"url": <sample url>})', jsonObject)
  .option('--faq <question|answer>', 'a question and its answer (repeatable)', pairs('--faq', 'Question|Answer'))
  .option('--article <url|title>', 'a related article (repeatable)', pairs('--article', 'URL|Title'))
  .action((o: PublishOptions) =>
    withStore(async (rt) => {
      const r = await rt.engine.catalog.publish({
        scraperId: o.scraper,
        slug: o.slug,
        title: o.title,
        description: o.description,
        niche: o.niche,
        useCase: o.useCase,
        longDescription: o.longDescription,
        valueProposition: o.valueProposition,
        sampleUrl: o.sampleUrl,
        sampleInput: o.sampleInput,
        faqs: o.faq?.map(([question, answer]) => ({ question, answer })),
        articleLinks: o.article?.map(([url, title]) => ({ url, title })),
      });
      return `${r.created ? 'published' : 'updated'} ${r.slug} (scraper ${r.scraperId})`;
    }),
  );
catalog
  .command('unpublish')
  .description('remove a public scraper API (clones already made stay)')
  .argument('<slug>')
  .action((slug: string) =>
    withStore(async (rt) => {
      await rt.engine.catalog.unpublish(slug);
      return `unpublished ${slug}`;
    }),
  );

program
  .command('mcp')
  .description(
    'an MCP server on stdio for AI assistants: a client of the running Gleaner at GLEANER_SERVER, acting as the owner of GLEANER_API_KEY (serve also answers MCP at /mcp)',
  )
  .option('--server <url>', 'Gleaner server (GLEANER_SERVER, default http://127.0.0.1:8080)')
  // Accepted for assistants' configurations written for earlier versions; the server's workers do the work.
  .addOption(new Option('--no-worker').hideHelp())
  .action(async (o: { server?: string }) => {
    const { config, logger } = setup({}, true);
    // Loaded here: the MCP SDK is not needed by the other commands' start-up.
    const { serveMcpStdio } = await import('./mcp/stdio.ts');
    await serveMcpStdio({ server: o.server ?? config.client.server, apiKey: config.client.apiKey }, logger);
  });

registerScriptingCommands(program);
registerScheduleCommands(program);

program.parseAsync(process.argv).catch((err: unknown) => {
  const message = err instanceof GleanerError ? `${err.code}: ${err.message}` : (err as Error).message;
  process.stderr.write(`gleaner: ${message}\n`);
  process.exit(err instanceof GleanerError && err.code === 'NOT_FOUND' ? 2 : 1);
});
