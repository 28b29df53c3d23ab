/**
 * `gleaner schedules ...`: the schedules of a running server (GLEANER_SERVER / --server, key in
 * GLEANER_API_KEY) — list, create, show, change, pause, resume, trigger, delete, and the changes
 * of a scheduled run. A line per schedule (or JSON with --json) on stdout, errors on stderr.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { client, positiveInt, type ServerOption } from './commands.ts';

interface ScheduleBody {
  schedule_id: string;
  name: string | null;
  template_id: string;
  cron: string;
  timezone: string;
  status: string;
  health: string;
  health_reason: string | null;
  next_run_at: string | null;
  last_run: { run_id: string; status: string; changes: Record<string, number> | null } | null;
}

const NOTIFY = ['always', 'changes', 'failures'];

function counts(c: Record<string, number> | null | undefined): string {
  if (!c) return '-';
  return (
    ['new', 'changed', 'removed', 'unknown', 'unchanged']
      .filter((k) => c[k])
      .map((k) => `${c[k]} ${k}`)
      .join(', ') || 'no records'
  );
}

/** One human line per schedule: id, status/health, cron and zone, next firing, last run's changes. */
export function scheduleLine(s: ScheduleBody): string {
  const health = s.health === 'degraded' ? `DEGRADED (${s.health_reason})` : 'ok';
  const last = s.last_run ? `last ${s.last_run.status}: ${counts(s.last_run.changes)}` : 'never ran';
  return [s.schedule_id, s.status, health, `"${s.cron}" ${s.timezone}`, s.next_run_at ? `next ${s.next_run_at}` : '-', last, s.name ?? ''].join('  ').trim();
}

interface CreateOptions extends ServerOption {
  scraper: string;
  cron: string;
  timezone?: string;
  url?: string[];
  maxPages?: number;
  callback?: string;
  notify?: string;
  key?: string[];
  name?: string;
  json?: boolean;
}

const collect = (v: string, previous: string[] = []) => [...previous, v];

function notifyOption(v: string): string {
  if (!NOTIFY.includes(v)) throw new InvalidArgumentError(`--notify is one of ${NOTIFY.join(', ')}`);
  return v;
}

function settings(o: Partial<CreateOptions>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (o.cron) body.cron = o.cron;
  if (o.timezone) body.timezone = o.timezone;
  if (o.url?.length) body.url = o.url.length === 1 ? o.url[0] : o.url;
  if (o.maxPages) body.max_pages = o.maxPages;
  if (o.callback) body.callback_url = o.callback;
  if (o.notify) body.notify = o.notify;
  if (o.key?.length) body.key_attributes = o.key;
  if (o.name) body.name = o.name;
  return body;
}

function print(s: ScheduleBody, json?: boolean): void {
  process.stdout.write(`${json ? JSON.stringify(s) : scheduleLine(s)}\n`);
}

export function registerScheduleCommands(program: Command): void {
  const serverOption = '--server <url>';
  const serverHelp = 'Gleaner server (GLEANER_SERVER, default http://127.0.0.1:8080); key in GLEANER_API_KEY';
  const cmd = program.command('schedules').description("a running server's schedules: runs of a scraper on a cron expression, with what changed");
  const settingOptions = (c: Command) =>
    c
      .option('--timezone <zone>', 'IANA time zone of the cron expression (default UTC)')
      .option('--url <url>', "a URL each firing runs (repeatable; default: the scraper's own)", collect)
      .option('--max-pages <n>', 'pages per URL', positiveInt('--max-pages'))
      .option('--callback <url>', 'POST notifications here (signed, retried)')
      .option('--notify <when>', 'always, changes (default) or failures', notifyOption)
      .option('--key <field>', 'a field identifying a record across runs (repeatable)', collect)
      .option('--name <name>', 'a name for the schedule')
      .option('--json', 'print the schedule as JSON')
      .option(serverOption, serverHelp);

  cmd
    .command('list')
    .description("one line per schedule: id, status, health, cron, next firing, last run's changes")
    .option('--json', 'one JSON object per line')
    .option(serverOption, serverHelp)
    .action(async (o: ServerOption & { json?: boolean }) => {
      const { schedules } = await client(o).call<{ schedules: ScheduleBody[] }>('GET', '/v1/schedules');
      for (const s of schedules) print(s, o.json);
    });

  settingOptions(
    cmd
      .command('create')
      .description('schedule a scraper')
      .requiredOption('--scraper <id>', 'the scraper (template_id)')
      .requiredOption('--cron <expr>', 'five-field cron expression, e.g. "0 */6 * * *"'),
  ).action(async (o: CreateOptions) => print(await client(o).call('POST', '/v1/schedules', { template_id: o.scraper, ...settings(o) }), o.json));

  settingOptions(cmd.command('update').description("change a schedule's settings").argument('<id>').option('--cron <expr>', 'a new cron expression')).action(
    async (id: string, o: CreateOptions) => print(await client(o).call('PATCH', `/v1/schedules/${encodeURIComponent(id)}`, settings(o)), o.json),
  );

  for (const [verb, what] of [
    ['show', 'a schedule'],
    ['pause', 'pause a schedule'],
    ['resume', 'resume a paused schedule'],
  ] as const) {
    cmd
      .command(verb)
      .description(what)
      .argument('<id>')
      .option('--json', 'print the schedule as JSON')
      .option(serverOption, serverHelp)
      .action(async (id: string, o: ServerOption & { json?: boolean }) => {
        const path = `/v1/schedules/${encodeURIComponent(id)}`;
        print(await client(o).call(verb === 'show' ? 'GET' : 'POST', verb === 'show' ? path : `${path}/${verb}`), o.json);
      });
  }

  cmd
    .command('trigger')
    .description('fire a schedule now; prints the run id')
    .argument('<id>')
    .option(serverOption, serverHelp)
    .action(async (id: string, o: ServerOption) => {
      const r = await client(o).call<{ run_id: string }>('POST', `/v1/schedules/${encodeURIComponent(id)}/trigger`);
      process.stdout.write(`${r.run_id}\n`);
    });

  cmd
    .command('delete')
    .description('delete a schedule (its runs stay)')
    .argument('<id>')
    .option(serverOption, serverHelp)
    .action(async (id: string, o: ServerOption) => {
      await client(o).call('DELETE', `/v1/schedules/${encodeURIComponent(id)}`);
      process.stderr.write(`schedule ${id} deleted\n`);
    });

  cmd
    .command('changes')
    .description('what changed in a scheduled run: one JSON line per record that is not unchanged, the counts on stderr')
    .argument('<run_id>')
    .option(serverOption, serverHelp)
    .action(async (runId: string, o: ServerOption) => {
      const r = await client(o).call<{ status: string; changes?: { counts: Record<string, number>; records: unknown[] } | null }>(
        'GET',
        `/v1/scrapers/run_async/${encodeURIComponent(runId)}?changes=true`,
      );
      if (r.changes === undefined) throw new InvalidArgumentError(`run ${runId} was not started by a schedule`);
      if (!r.changes) throw new InvalidArgumentError(`run ${runId} is ${r.status}: its changes are known once it has finished`);
      for (const c of r.changes.records) process.stdout.write(`${JSON.stringify(c)}\n`);
      process.stderr.write(`${counts(r.changes.counts)}\n`);
    });
}
