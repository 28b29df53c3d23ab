// The agent survives any page: a click that lands on plain text, on a body with no element at all
// (no content type, or "text/html" holding just a word) or on a page the driver cannot read goes on
// with what the page shows (or with the model told why it could not be read), on the http driver
// (linkedom), Playwright and Selenium.
import { expect } from 'chai';
import { startStack, type Stack, type StackOptions } from './support/stack.ts';
import { agentScript, call, refOf } from './support/agent-script.ts';
import { names, runTask } from './support/agentic-api.ts';
import type { ActionOptions, Driver, GotoOptions } from '@gleaner/core/plugin';

const START = `<!doctype html><html><head><title>Answers</title></head><body><h1>Answers</h1>
  <a href="/plain">Plain answer</a> <a href="/bare">Bare answer</a> <a href="/word">Word answer</a> <a href="/broken">Broken answer</a>
  <p>Product: Red Kettle — $24.5</p></body></html>`;

function addPages(s: Stack): void {
  s.site.page('/start', START);
  s.site.route('/plain', (_q, res) => {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('Product: Blue Kettle — $26\nProduct: Green Teapot — $31.25\n');
  });
  s.site.route('/bare', (_q, res) => {
    res.writeHead(200); // no content type, no element
    res.end('OK');
  });
  s.site.route('/word', (_q, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('Thanks');
  });
  s.site.page('/broken', '<!doctype html><html><head><title>Broken</title></head><body><p>never read</p></body></html>');
}

const back = (s: Stack) => call.navigate(`${s.site.url}/start`);

function suite(label: string, opts: StackOptions): void {
  describe(`agent on pages that are not HTML documents: ${label}`, function () {
    this.timeout(120_000);
    let s: Stack;
    before(async () => {
      s = await startStack(opts);
      addPages(s);
    });
    after(() => s?.close());

    it('clicks into plain text, a body without elements and a bare word, extracts there and goes on', async () => {
      s.model.reset();
      const script = agentScript([
        (o) => [call.click(refOf(o, /link "Plain answer"/))],
        () => [call.extract()],
        () => [back(s)],
        (o) => [call.click(refOf(o, /link "Bare answer"/))],
        () => [back(s)],
        (o) => [call.click(refOf(o, /link "Word answer"/))],
        () => [call.finish('read every answer')],
      ]);
      s.model.script(script.script);
      const done = await runTask(s, { url: `${s.site.url}/start`, prompt: 'the products in the answers' });
      expect(done.status, JSON.stringify(done)).to.equal('completed');
      expect(names(done.data)).to.deep.equal(['Blue Kettle', 'Green Teapot']);
      expect(done.steps.map((st: any) => [st.action, st.ok])).to.deep.equal([
        ['click', true],
        ['extract', true],
        ['navigate', true],
        ['click', true],
        ['navigate', true],
        ['click', true],
        ['finish', true],
      ]);
      // The model read each page's text.
      expect(script.observations[1]).to.match(/URL: \S+\/plain\n[\s\S]*Product: Blue Kettle/);
      expect(script.observations[4], script.observations[4]).to.match(/URL: \S+\/bare\n[\s\S]*Page text:\n(```\n)?OK/);
      expect(script.observations[6]).to.match(/URL: \S+\/word\n[\s\S]*Page text:\n(```\n)?Thanks/);
    });
  });
}

suite('http (linkedom)', { config: { browser: { escalation: 'never' } } });
suite('playwright', { config: { browser: { driver: 'playwright', escalation: 'always' } } });
suite('selenium', { provider: 'ollama', config: { browser: { driver: 'selenium', escalation: 'always' } } });

/** The http driver, except that reading a page whose URL ends in /broken fails as a crashed renderer would. */
const breakingReads = (d: Driver): Driver => ({
  ...d,
  async openSession(opts) {
    const session = await d.openSession(opts);
    const [goto, click, outline, snapshot] = [
      session.goto.bind(session),
      session.click!.bind(session),
      session.outline!.bind(session),
      session.snapshot!.bind(session),
    ];
    let url = '';
    const broken = () => {
      if (url.endsWith('/broken')) throw new Error('Target crashed');
    };
    session.goto = async (u: string, o?: GotoOptions) => {
      const page = await goto(u, o);
      url = page.finalUrl;
      return page;
    };
    session.click = async (sel: string, o?: ActionOptions) => {
      await click(sel, o);
      url = (await snapshot()).finalUrl;
    };
    session.outline = async () => (broken(), outline());
    session.snapshot = async () => (broken(), snapshot());
    return session;
  },
});

describe('agent on a page the driver cannot read', function () {
  this.timeout(120_000);
  let s: Stack;
  before(async () => {
    s = await startStack({ config: { browser: { escalation: 'never' } }, drivers: (ds) => ds.map(breakingReads) });
    addPages(s);
  });
  after(() => s?.close());

  it('tells the model the page could not be read and why; the agent goes back and finishes with its records', async () => {
    const script = agentScript([(o) => [call.click(refOf(o, /link "Broken answer"/))], () => [back(s)], () => [call.extract()], () => [call.finish()]]);
    s.model.script(script.script);
    const done = await runTask(s, { url: `${s.site.url}/start`, prompt: 'products' });
    expect(done.status, JSON.stringify(done)).to.equal('completed');
    expect(names(done.data)).to.deep.equal(['Red Kettle']);
    expect(done.steps[0]).to.include({ action: 'click', ok: true });
    expect(script.observations[1], script.observations[1]).to.match(/Interactive elements \(0\):[\s\S]*This page could not be read: Target crashed\. Go back/);
  });
});
