import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { startStack, type Stack } from './support/stack.ts';
import { buildBookScraper, openBookshop, shelf } from './support/books.ts';
import { CLI, freePort, type CliResult } from './support/process.ts';

// The workspace packages resolve to their sources under the Makefile's --conditions=gleaner-source.
const nodeOptions = process.env.NODE_OPTIONS ? { NODE_OPTIONS: process.env.NODE_OPTIONS } : {};

/** Runs `gleaner <args>` as a user would from another machine: only the server URL and the key. */
function gleaner(args: string[], env: Record<string, string>, input?: string): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH, ...nodeOptions, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.end(input ?? '');
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const lines = (out: string) =>
  out
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

describe('cli: scripting commands against a running server', function () {
  // Each command is a fresh Node process (~3 s of CPU to start): generous on a loaded machine.
  this.timeout(240_000);
  let s: Stack;
  let env: Record<string, string>;
  let shelfUrl: (n: number) => string;
  let scraperId: string;
  let dir: string;

  before(async () => {
    // A secrets key, as a server offering browser profiles has (for --profile).
    s = await startStack({ config: { auth: { secretsKey: randomBytes(32).toString('base64') } } });
    shelfUrl = openBookshop(s);
    s.site.route('/members', (q, res) => {
      const signedIn = /(?:^|;\s*)sid=member-7(?:;|$)/.test(q.headers.cookie ?? '');
      res.writeHead(200, { 'content-type': 'text/html' }).end(signedIn ? '<h1>Members</h1><p>Order 7 shipped</p>' : '<h1>Sign in</h1><p>Members only</p>');
    });
    s.site.route('/gone', (_q, res) => void res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not here</h1>'));
    env = { GLEANER_API_KEY: s.key };
    scraperId = await buildBookScraper(s, shelfUrl(1));
    dir = mkdtempSync(join(tmpdir(), 'gleaner-cli-'));
  });
  after(async () => {
    await s?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('extract prints one JSON record per line, or the whole response with --json', async () => {
    const r = await gleaner(['extract', shelfUrl(2), '--attr', 'title', '--attr', 'pages:number:how many pages: a count', '--server', s.url], env);
    expect(r.code, r.stderr).to.equal(0);
    expect(lines(r.stdout)).to.deep.equal(shelf(2));
    const sent = s.model.chatRequests().at(-1)!.body.response_format.json_schema.schema;
    expect(JSON.stringify(sent)).to.contain('how many pages: a count');

    const full = await gleaner(['extract', shelfUrl(3), '--prompt', 'every book with its page count', '--json'], { ...env, GLEANER_SERVER: s.url });
    expect(full.code, full.stderr).to.equal(0);
    const body = JSON.parse(full.stdout);
    expect(body.data).to.deep.equal(shelf(3).map((b) => ({ ...b, pages: String(b.pages) })));
    // The whole response, as docs/scripting.md says: the extraction's details too.
    expect(body.details.pages[0].driver, full.stdout).to.be.a('string');
  });

  it('markdown prints the page as Markdown', async () => {
    const r = await gleaner(['markdown', shelfUrl(4), '--server', s.url], env);
    expect(r.code, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/^# Shelf 4$/m);
    expect(r.stdout).to.contain('Book 4.2 402 pages');
    // --main: only the main content (only_main_content), here the whole shelf.
    const main = await gleaner(['markdown', shelfUrl(4), '--main', '--server', s.url], env);
    expect(main.code, main.stderr).to.equal(0);
    expect(main.stdout).to.match(/^# Shelf 4$/m);
    expect(main.stdout).to.contain('Book 4.2 402 pages');
  });

  it('run processes a URL file in batches: a JSON line per URL, a bad line reported by its line number, plain progress lines, exit 3 when some failed', async () => {
    const urls = [shelfUrl(5), shelfUrl(6), `${s.site.url}/gone`, shelfUrl(7), shelfUrl(8)];
    const file = join(dir, 'urls.txt');
    // Line 8 is not a URL: it is reported with its line, and its batch's other URL still runs.
    writeFileSync(file, `# five shelves\n${urls.slice(0, 3).join('\n')}\n\n${urls.slice(3).join('\n')}\nnot a url\n`);
    const r = await gleaner(['run', '--scraper', scraperId, '--urls', file, '--batch', '2', '--poll-ms', '200', '--server', s.url], env);
    expect(r.code, r.stderr).to.equal(3);
    const out = lines(r.stdout);
    const bad = out.find((l) => l.url === 'not a url');
    expect(bad).to.include({ status: 'failed', line: 8 });
    expect(bad.error).to.match(/^line 8: /);
    expect(r.stderr).to.contain(`${file}:8: `);
    out.splice(out.indexOf(bad), 1);
    expect(out.map((l) => [l.url, l.status])).to.have.deep.members(urls.map((u) => [u, u.endsWith('/gone') ? 'failed' : 'completed']));
    expect(out.find((l) => l.url === shelfUrl(7)).data).to.deep.equal(shelf(7));
    expect(out.find((l) => l.url.endsWith('/gone')).error).to.contain('404');
    expect(new Set(out.map((l) => l.run_id)).size).to.equal(3); // batches of 2, 2 and 1
    // Each run is named by its run id as it starts; progress by the scraper's id.
    const runIds = [...new Set(out.map((l) => l.run_id))];
    for (const id of runIds) expect(r.stderr).to.match(new RegExp(`^scraper ${scraperId}: run ${id} started \\(\\d URLs? from line \\d\\)$`, 'm'));
    const progress = r.stderr
      .trim()
      .split('\n')
      .filter((l) => l.includes('URLs done'));
    expect(progress[0]).to.equal(`scraper ${scraperId}: 0/5 URLs done (0%, 1 failed)`);
    expect(progress.at(-1)).to.equal(`scraper ${scraperId}: 5/5 URLs done (100%, 2 failed)`);
    expect(r.stderr).to.not.contain('\r');
  });

  it('run reads URLs from standard input with --urls -', async () => {
    const r = await gleaner(['run', '--scraper', scraperId, '--urls', '-', '--poll-ms', '100', '--server', s.url], env, `${shelfUrl(9)}\n${shelfUrl(10)}\n`);
    expect(r.code, r.stderr).to.equal(0);
    expect(lines(r.stdout).map((l) => [l.url, l.data])).to.deep.equal([
      [shelfUrl(9), shelf(9)],
      [shelfUrl(10), shelf(10)],
    ]);
  });

  it('run --provenance: each record carries the recipe rule of its values', async () => {
    const r = await gleaner(['run', '--scraper', scraperId, '--urls', '-', '--provenance', '--poll-ms', '100', '--server', s.url], env, `${shelfUrl(11)}\n`);
    expect(r.code, r.stderr).to.equal(0);
    const [line] = lines(r.stdout);
    expect(line.data.map(({ _provenance, ...rec }: any) => rec)).to.deep.equal(shelf(11));
    for (const rec of line.data) expect(rec._provenance.title).to.include({ method: 'selector', url: shelfUrl(11) });
  });

  it('run draws a progress bar on a terminal', async () => {
    // `script` gives the command a pseudo-terminal, as an interactive shell would.
    const cmd = [process.execPath, CLI, 'run', '--scraper', scraperId, '--poll-ms', '100', '--server', s.url].map((a) => `'${a}'`).join(' ');
    const r = await new Promise<CliResult>((resolve) => {
      const child = spawn('script', ['-qec', cmd, '/dev/null'], {
        env: { PATH: process.env.PATH, TERM: 'xterm', ...nodeOptions, ...env },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stdin.end();
      child.on('exit', (code) => resolve({ code, stdout, stderr: '' }));
    });
    expect(r.code, r.stdout).to.equal(0);
    expect(r.stdout).to.contain('\r\x1b[2K');
    expect(r.stdout).to.contain(`scraper ${scraperId} ${'█'.repeat(30)} 1/1 100%`);
    expect(r.stdout).to.contain(`"url":"${shelfUrl(1)}"`); // the scraper's own URL
  });

  it('explains a bad key, a missing key and an unreachable server on stderr', async () => {
    const badKey = await gleaner(['markdown', shelfUrl(1), '--server', s.url], { GLEANER_API_KEY: 'glk_nope' });
    expect(badKey.code).to.equal(1);
    expect(badKey.stderr).to.contain('gleaner: UNAUTHORIZED: Missing or invalid API key');
    expect(badKey.stdout).to.equal('');

    const noKey = await gleaner(['markdown', shelfUrl(1), '--server', s.url], {});
    expect(noKey.stderr).to.contain('set GLEANER_API_KEY');

    const down = await gleaner(['markdown', shelfUrl(1), '--server', `http://127.0.0.1:${await freePort()}`], env);
    expect(down.code).to.equal(1);
    expect(down.stderr).to.match(/SERVER_UNREACHABLE: cannot reach the Gleaner server at http:\/\/127\.0\.0\.1:\d+/);
  });

  it('explains a bad request and an unknown scraper on stderr', async () => {
    const invalid = await gleaner(['extract', 'not-a-url', '--attr', 'title', '--server', s.url], env);
    expect(invalid.code).to.equal(1);
    expect(invalid.stderr).to.contain('VALIDATION_FAILED: body.url');

    const unknown = await gleaner(['run', '--scraper', 'no-such-scraper', '--server', s.url], env);
    expect(unknown.code).to.equal(2);
    expect(unknown.stderr).to.contain('NOT_FOUND');
  });

  it("extract and markdown read the pages signed in with --profile; an unknown profile is the server's 404", async () => {
    const host = new URL(s.site.url).hostname;
    expect((await s.api('POST', '/v1/profiles', { name: 'member', cookies: [{ name: 'sid', value: 'member-7', domain: host }] })).status).to.equal(201);
    const anonymous = await gleaner(['markdown', `${s.site.url}/members`, '--server', s.url], env);
    expect(anonymous.stdout).to.contain('Members only');
    const md = await gleaner(['markdown', `${s.site.url}/members`, '--profile', 'member', '--server', s.url], env);
    expect(md.code, md.stderr).to.equal(0);
    expect(md.stdout).to.contain('Order 7 shipped');

    // The bookshop's model finds no book here; what matters is what it was shown.
    const ex = await gleaner(['extract', `${s.site.url}/members`, '--attr', 'order', '--profile', 'member', '--server', s.url], env);
    expect(ex.code, ex.stderr).to.equal(0);
    expect(JSON.stringify(s.model.chatRequests().at(-1)!.body.messages)).to.contain('Order 7 shipped');

    const unknown = await gleaner(['markdown', `${s.site.url}/members`, '--profile', 'nobody', '--server', s.url], env);
    expect(unknown.code).to.not.equal(0);
    expect(unknown.stderr).to.contain('there is no profile "nobody"');
    // run passes it on too: the server refuses the run for the unknown profile.
    const run = await gleaner(['run', '--scraper', scraperId, '--profile', 'nobody', '--server', s.url], env);
    expect(run.code).to.not.equal(0);
    expect(run.stderr).to.contain('there is no profile "nobody"');
  });
});
