// allowed_domains on agent tasks and agentic builds (a Gleaner extension): a navigation or a link
// out of the listed hosts is refused before anything is fetched and the model is told; a script that
// takes the page elsewhere is followed back at once. The fixture site answers as 127.0.0.1 (allowed)
// and as localhost (another host, not allowed).
import { expect } from 'chai';
import { startStack, type Stack } from './support/stack.ts';
import { agentScript, call, refOf } from './support/agent-script.ts';
import { build, names, runTask } from './support/agentic-api.ts';
import { scriptBuildModel } from './support/agentic-model.ts';
import { addAgentPages } from './support/agent-site.ts';

const elsewhere = (s: Stack, path: string) => `${s.site.url.replace('127.0.0.1', 'localhost')}${path}`;

function addPages(s: Stack): void {
  s.site.page(
    '/home',
    `<!doctype html><html><head><title>Home</title></head><body><h1>Home</h1>
    <a href="${elsewhere(s, '/other')}">Partner site</a> <a href="/local">Our other page</a>
    <button id="away" type="button" onclick="location.href='${elsewhere(s, '/other')}'">Jump</button>
    <p>Product: Red Kettle — $24.5</p></body></html>`,
  );
  s.site.page('/local', '<!doctype html><html><head><title>Local</title></head><body><p>Product: Blue Kettle — $26</p></body></html>');
  s.site.page('/other', '<!doctype html><html><head><title>Other</title></head><body><p>Product: Foreign Kettle — $99</p></body></html>');
}

const reached = (s: Stack) => s.site.requests.filter((r) => r.path === '/other').length;

describe('allowed_domains', function () {
  this.timeout(180_000);
  let s: Stack;
  before(async () => {
    s = await startStack({ config: { browser: { driver: 'playwright' } } });
    addPages(s);
    addAgentPages(s.site);
  });
  after(() => s?.close());
  beforeEach(() => s.model.reset());

  it('validates allowed_domains (a list of host names, the start URL inside them) on both endpoints', async () => {
    for (const path of ['/v1/agent/extract', '/v1/agent/generate']) {
      const bad = await s.api('POST', path, { url: `${s.site.url}/home`, prompt: 'p', allowed_domains: ['https://example.com/x', 'ok.example'] });
      expect(bad.status, bad.text).to.equal(422);
      expect(bad.body.detail.map((d: any) => d.loc)).to.deep.equal([
        ['body', 'allowed_domains', 0],
        ['body', 'allowed_domains'],
      ]);
      const empty = await s.api('POST', path, { url: `${s.site.url}/home`, prompt: 'p', allowed_domains: [] });
      expect(empty.status).to.equal(422);
      const outside = await s.api('POST', path, { url: `${s.site.url}/home`, prompt: 'p', allowed_domains: ['example.com'] });
      expect(outside.status).to.equal(422);
      expect(outside.body.detail[0].msg).to.match(/start URL's host is not in allowed_domains \(example\.com\)/);
    }
  });

  it('refuses a navigation and a link out of them before fetching, tells the model, and goes on inside them', async () => {
    const script = agentScript([
      () => [call.navigate(elsewhere(s, '/other'))],
      (o) => [call.click(refOf(o, /link "Partner site"/))],
      (o) => [call.click(refOf(o, /link "Our other page"/))],
      () => [call.extract()],
      () => [call.finish()],
    ]);
    s.model.script(script.script);
    const done = await runTask(s, { url: `${s.site.url}/home`, prompt: 'products', allowed_domains: ['127.0.0.1'] });
    expect(done.status, JSON.stringify(done)).to.equal('completed');
    expect(names(done.data)).to.deep.equal(['Blue Kettle']);
    expect(done.steps.slice(0, 3).map((st: any) => [st.action, st.ok])).to.deep.equal([
      ['navigate', false],
      ['click', false],
      ['click', true],
    ]);
    expect(reached(s)).to.equal(0);
    const told = s.model
      .chatRequests()[1]
      .body.messages.filter((m: any) => m.role === 'tool')
      .at(-1).content;
    expect(told).to.match(/^Error: localhost is outside this task's allowed_domains \(127\.0\.0\.1\); stay on those sites/);
  });

  it('follows a script that took the page out of them back at once (browser), and says so', async () => {
    const script = agentScript([(o) => [call.click(refOf(o, /button "Jump"/))], () => [call.extract()], () => [call.finish()]]);
    s.model.script(script.script);
    const done = await runTask(s, { url: `${s.site.url}/home`, prompt: 'products', allowed_domains: ['127.0.0.1'] });
    expect(done.status, JSON.stringify(done)).to.equal('completed');
    expect(names(done.data)).to.deep.equal(['Red Kettle']);
    expect(done.steps[0]).to.include({ action: 'click', ok: false });
    expect(done.steps[0].error).to.match(/localhost is outside this task's allowed_domains/);
    expect(script.observations[1]).to.match(/^Current page:\nURL: http:\/\/127\.0\.0\.1:\d+\/home/);
  });

  it('holds for an agentic build too', async () => {
    const before = reached(s);
    scriptBuildModel(s, [() => [call.navigate(elsewhere(s, '/other'))], () => [call.extract()], () => [call.finish()]], []);
    const ready = await build(s, { url: `${s.site.url}/list?page=1`, prompt: 'Products.', allowed_domains: ['127.0.0.1'] });
    expect(ready.status, ready.error).to.equal('ready');
    expect(reached(s)).to.equal(before);
    const { rows } = await s.engine.db.query('SELECT request FROM scrapers WHERE id = $1', [ready.template_id]);
    expect(rows[0].request.allowedDomains).to.deep.equal(['127.0.0.1']);
  });
});
