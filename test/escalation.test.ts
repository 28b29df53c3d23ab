// Escalation from plain HTTP to a browser, through the API: a JS-rendered page that driver-http
// sees as an empty shell is extracted by the browser driver, and the driver is recorded.
import { expect } from 'chai';
import { startStack, userContent, waitFor, type Stack } from './support/stack.ts';

const PRODUCTS = [
  { name: 'Rendered Alpha', price: 101 },
  { name: 'Rendered Beta', price: 202 },
];

/** Products drawn by a script: nothing of them is in the HTML that plain HTTP receives. */
function renderedPage(mount: string): string {
  return `<!doctype html><html><head><title>Shop</title></head><body>
${mount}
<script>
  const items = ${JSON.stringify(PRODUCTS)};
  document.getElementById('list').innerHTML = items.map((p) => '<li class="product"><h2>' + p.name + '</h2><span class="price">$' + p.price + '</span></li>').join('');
</script></body></html>`;
}

/** Answers from what the model read: records only when the rendered products are in its input. */
function answerFromInput(req: { body: any }) {
  const input = userContent(req);
  const records = PRODUCTS.filter((p) => input.includes(p.name)).map((p) => ({ name: p.name, price: p.price }));
  return { json: { records } };
}

const ATTRIBUTES = [
  { name: 'name', type: 'string' },
  { name: 'price', type: 'number' },
];

describe('escalation from plain HTTP to a browser (end to end)', function () {
  this.timeout(120_000);

  describe('with browser.escalation = auto (the default)', () => {
    let s: Stack;
    before(async () => {
      s = await startStack();
      // An app shell: an empty mount point and a script.
      s.site.page('/shell', renderedPage('<div id="root"><ul id="list"></ul></div>'));
      // Plenty of server-rendered text and no shell markers: only the empty extraction reveals it.
      s.site.page(
        '/wordy',
        renderedPage(`<article>${'<p>Our catalogue is updated daily with new arrivals from many makers.</p>'.repeat(30)}</article><ul id="list"></ul>`),
      );
      s.model.script((req) => answerFromInput(req));
    });
    after(() => s.close());

    it('fetches an app shell again with the browser and extracts the rendered records', async () => {
      const res = await s.api('POST', '/v1/extract', { url: `${s.site.url}/shell`, attributes: ATTRIBUTES });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data).to.deep.equal(PRODUCTS);
      // One model call, on the rendered page: the shell was recognised before any extraction.
      expect(s.model.chatRequests()).to.have.length(1);
      expect(s.site.requests.filter((r) => r.path === '/shell').length).to.equal(2);
    });

    it('escalates after an empty extraction and records the browser driver on the task', async () => {
      s.model.reset();
      s.model.script((req) => answerFromInput(req));
      const sent = await s.api('POST', '/v1/extractor/extract_async', { url: `${s.site.url}/wordy`, attributes: ATTRIBUTES });
      expect(sent.status, sent.text).to.equal(202);
      const done = await waitFor(
        async () => {
          const r = await s.api('GET', `/v1/extractor/extract_async/${sent.body.task_id}`);
          return r.body.status === 'completed' || r.body.status === 'failed' ? r : undefined;
        },
        60_000,
        'the task to finish',
      );
      expect(done.body.status, JSON.stringify(done.body)).to.equal('completed');
      expect(done.body.data).to.deep.equal(PRODUCTS);
      // The first call read the unrendered page and found nothing; the second read the rendered one.
      const calls = s.model.chatRequests();
      expect(calls).to.have.length(2);
      expect(userContent(calls[0])).to.not.contain('Rendered Alpha');
      expect(userContent(calls[1])).to.contain('Rendered Alpha');
      const { rows } = await s.engine.db.query('SELECT driver FROM tasks WHERE id = $1', [sent.body.task_id]);
      expect(rows[0].driver).to.equal('playwright');
    });
  });

  describe('with browser.escalation = never', () => {
    let s: Stack;
    before(async () => {
      s = await startStack({ config: { browser: { escalation: 'never' } } });
      s.site.page('/shell', renderedPage('<div id="root"><ul id="list"></ul></div>'));
      s.model.script((req) => answerFromInput(req));
    });
    after(() => s.close());

    it('stays on plain HTTP and says the page may need JavaScript', async () => {
      const res = await s.api('POST', '/v1/extract', { url: `${s.site.url}/shell`, attributes: ATTRIBUTES });
      expect(res.status, res.text).to.equal(200);
      expect(res.body.data).to.deep.equal([]);
      expect(res.body.message).to.match(/may need JavaScript/);
      expect(s.site.requests.filter((r) => r.path === '/shell').length).to.equal(1);
    });
  });
});
