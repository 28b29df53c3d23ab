// The MCP server through the SDK's own client, over streamable HTTP (/mcp on the API) and over
// stdio (`gleaner mcp` as an assistant launches it), against a real server, the fixture site and
// the scripted model server.
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { startStack, waitFor, type Stack } from './support/stack.ts';
import { BOOK_ATTRS, buildBookScraper, openBookshop, shelf } from './support/books.ts';
import { addAgentPages, PRODUCTS } from './support/agent-site.ts';
import { agentScript, call, refOf } from './support/agent-script.ts';
import { request } from './support/http.ts';
import { CLI, freePort } from './support/process.ts';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXTRACT_BODY, RUN_ASYNC_BODY } from '@gleaner/core';

const TOOL_NAMES = [
  'agent_extract',
  'extract',
  'generate_scraper',
  'get_agent_task',
  'get_run',
  'get_scraper',
  'get_usage',
  'list_scrapers',
  'markdown',
  'parse',
  'run_scraper',
];

async function httpClient(s: Stack, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'gleaner-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers } }));
  return client;
}

const json = (r: any) => r.structuredContent as any;
/** The first request waits for the process to start: Node loading the sources takes long on a loaded machine. */
const STARTUP = { timeout: 180_000 };
const text = (r: any) => (r.content as Array<{ type: string; text: string }>).map((c) => c.text).join('');

describe('mcp: streamable HTTP at /mcp', function () {
  this.timeout(180_000);
  let s: Stack;
  let client: Client;
  let shelfUrl: (n: number) => string;

  before(async () => {
    s = await startStack({ config: { browser: { driver: 'playwright' } } });
    shelfUrl = openBookshop(s);
    client = await httpClient(s, { 'X-API-KEY': s.key });
  });
  after(async () => {
    await client?.close();
    await s?.close();
  });

  it("lists the tools with the HTTP API's request schemas", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).to.deep.equal(TOOL_NAMES);
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.extract.inputSchema).to.deep.equal(JSON.parse(JSON.stringify(EXTRACT_BODY)));
    expect(byName.run_scraper.inputSchema).to.deep.equal(JSON.parse(JSON.stringify(RUN_ASYNC_BODY)));
    expect(byName.list_scrapers.annotations?.readOnlyHint).to.equal(true);
    expect(byName.generate_scraper.annotations?.readOnlyHint).to.equal(false);
  });

  it('extracts, parses and converts to Markdown', async () => {
    const extracted = await client.callTool({ name: 'extract', arguments: { url: shelfUrl(1), attributes: BOOK_ATTRS } });
    expect(extracted.isError, text(extracted)).to.not.equal(true);
    expect(json(extracted).data).to.deep.equal(shelf(1));
    expect(JSON.parse(text(extracted)).data).to.deep.equal(shelf(1));

    const parsed = await client.callTool({
      name: 'parse',
      arguments: { content: '<ul><li class="book"><span class="t">Book 9.1</span> <span class="p">901 pages</span></li></ul>', attributes: BOOK_ATTRS },
    });
    expect(json(parsed).data).to.deep.equal([{ title: 'Book 9.1', pages: 901 }]);

    const md = await client.callTool({ name: 'markdown', arguments: { url: shelfUrl(2) } });
    expect(text(md)).to.match(/^# Shelf 2$/m);
    const main = await client.callTool({ name: 'markdown', arguments: { url: shelfUrl(2), only_main_content: true } });
    expect(text(main)).to.match(/^# Shelf 2$/m);
    expect(text(main)).to.contain('Book 2.1');
  });

  it("answers a bad request with the API's validation issues as a tool error", async () => {
    const bad = await client.callTool({ name: 'extract', arguments: { url: 42, attributes: BOOK_ATTRS } });
    expect(bad.isError).to.equal(true);
    expect(text(bad)).to.contain('VALIDATION_FAILED: body.url');
    expect(json(bad).detail[0]).to.deep.include({ loc: ['body', 'url'] });
    const missing = await client.callTool({ name: 'get_run', arguments: { run_id: 'no-such-run' } });
    expect(missing.isError).to.equal(true);
    expect(text(missing)).to.match(/^NOT_FOUND: /);
  });

  it('generates a scraper, runs it with progress notifications, and reads the run back', async () => {
    const generated = await client.callTool({ name: 'generate_scraper', arguments: { url: shelfUrl(3), attributes: BOOK_ATTRS } });
    const id = json(generated).template_id;
    expect(json(generated)).to.deep.equal({ template_id: id, status: 'generating' });
    const ready = await waitFor(
      async () => {
        const r = json(await client.callTool({ name: 'get_scraper', arguments: { scraper_id: id } }));
        return r.status === 'ready' ? r : undefined;
      },
      30_000,
      'the scraper to be ready',
      200,
    );
    expect(ready.template_id).to.equal(id);
    const listed = json(await client.callTool({ name: 'list_scrapers', arguments: {} }));
    expect(listed.scrapers.map((x: any) => x.id)).to.include(id);

    const urls = [4, 5, 6, 7].map(shelfUrl);
    const progress: Progress[] = [];
    const ran = await client.callTool({ name: 'run_scraper', arguments: { template_id: id, url: urls } }, undefined, { onprogress: (p) => progress.push(p) });
    const run = json(ran);
    expect(run.status, text(ran)).to.equal('completed');
    expect(run.data).to.deep.equal(Object.fromEntries(urls.map((u, i) => [u, shelf(i + 4)])));
    // The SDK client handles a response before notifications that arrived with it, so the last
    // notification (4/4) may be dropped on its side; those it got count up towards 4.
    expect(progress.length).to.be.at.least(1);
    expect(progress.every((p) => p.total === 4 && /^run \S+: \d\/4 URLs done \((queued|running|completed)\)$/.test(p.message ?? ''))).to.equal(true);
    const progresses = progress.map((p) => p.progress);
    expect(progresses).to.deep.equal([...new Set(progresses)].sort((a, b) => a - b));

    const got = json(await client.callTool({ name: 'get_run', arguments: { run_id: run.run_id } }));
    expect(got).to.deep.equal(run);
  });

  it('runs the browsing agent, reporting each step as progress', async () => {
    addAgentPages(s.site);
    s.model.script(agentScript([(o) => [call.click(refOf(o, /tab "Teapots"/))], () => [call.extract()], () => [call.finish()]]).script);
    const progress: Progress[] = [];
    const r = await client.callTool(
      {
        name: 'agent_extract',
        arguments: {
          url: `${s.site.url}/tabs`,
          prompt: 'Return the teapots',
          attributes: [
            { name: 'name', type: 'string' },
            { name: 'price', type: 'number' },
          ],
        },
      },
      undefined,
      { onprogress: (p) => progress.push(p), timeout: 120_000 },
    );
    const task = json(r);
    expect(task.status, text(r)).to.equal('completed');
    expect(task.data.map((p: any) => p.name).sort()).to.deep.equal(
      PRODUCTS.filter((p) => p.name.includes('Teapot'))
        .map((p) => p.name)
        .sort(),
    );
    expect(task.steps.map((st: any) => st.action)).to.include.members(['click', 'extract']);
    // Each notification names the latest step (polling may see two steps at once and name the second).
    expect(
      progress.some((p) => /^step \d+: (click|extract|finish) /.test(p.message ?? '')),
      JSON.stringify(progress),
    ).to.equal(true);
    expect(progress.every((p) => p.total === s.engine.config.agent.maxSteps)).to.equal(true);
  });

  it('refuses a missing or wrong key, and takes the key as a bearer credential', async () => {
    const none = await request(s.url, 'POST', '/mcp', {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      headers: { accept: 'application/json, text/event-stream' },
    });
    expect(none.status).to.equal(401);
    expect(none.body.code).to.equal('UNAUTHORIZED');
    expect(none.body.detail).to.contain('"Authorization: Bearer <API key>"');
    let refused: unknown;
    try {
      await httpClient(s, { 'X-API-KEY': 'glk_wrong_key' });
    } catch (err) {
      refused = err;
    }
    expect(String(refused)).to.contain('"code":"UNAUTHORIZED"');
    const bearer = await httpClient(s, { Authorization: `Bearer ${s.key}` });
    try {
      expect((await bearer.listTools()).tools).to.have.length(TOOL_NAMES.length);
    } finally {
      await bearer.close();
    }
    const get = await request(s.url, 'GET', '/mcp', { headers: { 'X-API-KEY': s.key } });
    expect(get.status).to.equal(405);
  });
});

describe('mcp: stdio (gleaner mcp), a client of the running server, started from another directory', function () {
  this.timeout(400_000);
  let s: Stack;
  let client: Client;
  let shelfUrl: (n: number) => string;
  let stderr = '';
  let elsewhere: string;

  /** `gleaner mcp` as a desktop assistant starts it: in its own directory, with a server URL and a key only. */
  function stdioTransport(env: Record<string, string>) {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp'],
      cwd: elsewhere,
      env: {
        PATH: process.env.PATH!,
        HOME: elsewhere,
        ...(process.env.NODE_OPTIONS ? { NODE_OPTIONS: process.env.NODE_OPTIONS } : {}), // resolves @gleaner/* to their sources
        ...env,
      },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d) => (stderr += d));
    return transport;
  }

  before(async () => {
    elsewhere = mkdtempSync(join(tmpdir(), 'gleaner-mcp-elsewhere-'));
    s = await startStack();
    shelfUrl = openBookshop(s);
    client = new Client({ name: 'gleaner-test', version: '1.0.0' });
    // No DATABASE_URL, no model settings: everything is the server's.
    await client.connect(stdioTransport({ GLEANER_SERVER: s.url, GLEANER_API_KEY: s.key }), STARTUP);
  });
  after(async () => {
    await client?.close();
    await s?.close();
    if (elsewhere) rmSync(elsewhere, { recursive: true, force: true });
  });

  it('lists the tools and calls them as the owner of GLEANER_API_KEY, with progress, through the server', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort(), stderr).to.deep.equal(TOOL_NAMES);
    const extracted = await client.callTool({ name: 'extract', arguments: { url: shelfUrl(1), attributes: BOOK_ATTRS } });
    expect(json(extracted).data, text(extracted)).to.deep.equal(shelf(1));

    // A scraper the owner built over HTTP is theirs over stdio too, and runs through the shared queue.
    const id = await buildBookScraper(s, shelfUrl(2));
    const listed = json(await client.callTool({ name: 'list_scrapers', arguments: {} }));
    expect(listed.scrapers.map((x: any) => x.id)).to.include(id);
    const progress: Progress[] = [];
    const ran = await client.callTool({ name: 'run_scraper', arguments: { template_id: id, url: [shelfUrl(3), shelfUrl(4)] } }, undefined, {
      onprogress: (p) => progress.push(p),
    });
    expect(json(ran).data, text(ran)).to.deep.equal({ [shelfUrl(3)]: shelf(3), [shelfUrl(4)]: shelf(4) });
    expect(progress.length, stderr).to.be.at.least(1);
    expect(progress.every((p) => p.total === 2)).to.equal(true);
    const bad = await client.callTool({ name: 'extract', arguments: { url: 5 } });
    expect(bad.isError).to.equal(true);
    expect(text(bad)).to.contain('VALIDATION_FAILED');
  });

  it('cancelling a call ends its request on the server: the agent task it started is stopped', async () => {
    addAgentPages(s.site);
    s.model.script([{ hang: true }]); // the agent waits on the model until the call is cancelled
    const controller = new AbortController();
    const call = client
      .callTool({ name: 'agent_extract', arguments: { url: `${s.site.url}/tabs`, prompt: 'Return the teapots' } }, undefined, {
        signal: controller.signal,
        timeout: 120_000,
      })
      .catch((e: Error) => e);
    let taskId = '';
    await waitFor(
      async () => {
        const tasks = (await s.api('GET', '/v1/tasks?kind=agent')).body.tasks as Array<{ task_id: string; status: string }>;
        taskId = tasks[0]?.task_id ?? '';
        return tasks[0]?.status === 'running';
      },
      120_000,
      'the agent task to run',
    );
    controller.abort();
    expect(String(await call)).to.match(/abort/i);
    await waitFor(async () => (await s.api('GET', `/v1/agent/extract/${taskId}`)).body.status === 'stopped', 60_000, 'the task to stop');
  });

  it('opened no database: nothing was created in the directory it was started from', () => {
    expect(readdirSync(elsewhere)).to.deep.equal([]);
  });

  it('answers each request with what to fix when the key is refused or the server is not running', async () => {
    const refused = new Client({ name: 'gleaner-test', version: '1.0.0' });
    const err = await refused.connect(stdioTransport({ GLEANER_SERVER: s.url, GLEANER_API_KEY: 'glk_wrong' }), STARTUP).catch((e: Error) => e);
    expect(String(err)).to.contain('refused GLEANER_API_KEY').and.contain('gleaner keys create');
    await refused.close();
    const down = new Client({ name: 'gleaner-test', version: '1.0.0' });
    const unreachable = await down
      .connect(stdioTransport({ GLEANER_SERVER: `http://127.0.0.1:${await freePort()}`, GLEANER_API_KEY: s.key }), STARTUP)
      .catch((e: Error) => e);
    expect(String(unreachable)).to.contain('cannot reach the Gleaner server').and.contain('GLEANER_SERVER');
    await down.close();
  });
});
