// Trust and cost through the CLI and MCP (docs/scripting.md, docs/mcp.md): `gleaner extract` with
// --dry-run, --provenance and --grounding, `gleaner usage`, and the MCP extract and get_usage tools.
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startStack, userContent, type Stack } from './support/stack.ts';
import { BOOK_ATTRS, openBookshop } from './support/books.ts';
import { runCli } from './support/process.ts';

describe('trust and cost: CLI and MCP', function () {
  // Each CLI command is a fresh Node process (~3 s of CPU to start): generous on a loaded machine.
  this.timeout(240_000);
  let s: Stack;
  let shelfUrl: (n: number) => string;
  let env: Record<string, string>;
  before(async () => {
    s = await startStack({ worker: false });
    shelfUrl = openBookshop(s);
    env = { GLEANER_API_KEY: s.key, GLEANER_SERVER: s.url };
  });
  after(() => s?.close());

  it('gleaner extract --dry-run prints the estimate; --provenance --grounding flag the records and warnings on stderr', async () => {
    const dry = await runCli(['extract', shelfUrl(1), '--attr', 'title', '--attr', 'pages:number', '--dry-run'], env);
    expect(dry.code, dry.stderr).to.equal(0);
    const estimate = JSON.parse(dry.stdout);
    expect(estimate).to.include({ pages: 1, model_calls: 1 });
    // A model that invents one page count.
    s.model.script((req) => {
      const records: Array<Record<string, unknown>> = [...userContent(req).matchAll(/Book (\d+)\.(\d)/g)].map((m) => ({
        title: `Book ${m[1]}.${m[2]}`,
        pages: `${m[1]}0${m[2]}`,
      }));
      records[1].pages = '777';
      return { json: { records } };
    });
    const r = await runCli(['extract', shelfUrl(2), '--attr', 'title', '--attr', 'pages:number', '--provenance', '--grounding', 'flag'], env);
    expect(r.code, r.stderr).to.equal(0);
    const records = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(records).to.have.length(3);
    expect(records[0]._provenance.title).to.include({ grounding: 'verbatim', quote: 'Book 2.1' });
    expect(r.stderr).to.contain('warning: record 1 field pages: 777 was not found on the page the model read');
  });

  it('gleaner usage prints one line per group and the total', async () => {
    const r = await runCli(['usage', '--group-by', 'kind'], env);
    expect(r.code, r.stderr).to.equal(0);
    const out = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(out.map((l) => l.key)).to.deep.equal(['extract', 'total']);
    expect(out[1]).to.include({ events: out[0].events, unsupported_values: 1 });
    const bad = await runCli(['usage', '--group-by', 'week'], env);
    expect(bad.code).to.equal(1);
    expect(bad.stderr).to.contain('VALIDATION_FAILED');
  });

  it('MCP: extract takes dry_run and provenance; get_usage reports', async () => {
    const client = new Client({ name: 'gleaner-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers: { 'X-API-KEY': s.key } } }));
    try {
      const dry = (await client.callTool({ name: 'extract', arguments: { url: shelfUrl(3), attributes: BOOK_ATTRS, dry_run: true } })).structuredContent as any;
      expect(dry.estimate).to.include({ model_calls: 1 });
      const prov = (await client.callTool({ name: 'extract', arguments: { url: shelfUrl(3), attributes: BOOK_ATTRS, provenance: true } }))
        .structuredContent as any;
      expect(prov.data[0]._provenance.title.method).to.equal('text');
      const usage = (await client.callTool({ name: 'get_usage', arguments: { group_by: 'kind' } })).structuredContent as any;
      expect(usage.totals.events).to.equal(usage.items.reduce((n: number, i: any) => n + i.events, 0));
      expect(usage.items.map((i: any) => i.key)).to.deep.equal(['extract']);
    } finally {
      await client.close();
    }
  });
});
