import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook, listDeliveries } from '@gleaner/core/internal';
import { startStack, waitFor, type Stack } from './support/stack.ts';
import { PRODUCT_ATTRIBUTES, productAnswer, productsPage } from './support/pages.ts';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A callback receiver that fails the first `failures` deliveries (500, then 503, ...). */
async function startReceiver(failures: number): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      if (received.length <= failures) {
        res.writeHead(received.length % 2 ? 500 : 503).end('not now');
      } else {
        res.writeHead(204).end();
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/gleaner`,
    received,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

for (const provider of ['openai', 'ollama'] as const) {
  describe(`async extraction with signed callbacks (${provider} provider)`, () => {
    let s: Stack;
    before(async () => {
      s = await startStack({ provider, config: { callbacks: { retryDelaySeconds: 1, retryDelayMaxSeconds: 2, maxAttempts: 5 } } });
      s.site.page('/laptops', productsPage());
    });
    after(() => s.close());
    beforeEach(() => s.model.reset());

    it('runs the task in the background: pending -> completed with data, then POSTs the signed status body, retrying a failing receiver', async function () {
      this.timeout(60_000);
      const receiver = await startReceiver(2);
      try {
        s.model.script([{ json: productAnswer(s.site.url), delayMs: 300 }]);
        const submit = await s.api('POST', '/v1/extractor/extract_async', {
          url: `${s.site.url}/laptops`,
          attributes: PRODUCT_ATTRIBUTES,
          callback_url: receiver.url,
        });
        expect(submit.status, submit.text).to.equal(202);
        expect(submit.body.status).to.equal('pending');
        const id = submit.body.task_id;
        const done = await waitFor(
          async () => {
            const r = await s.api('GET', `/v1/extractor/extract_async/${id}`);
            return r.body.status === 'completed' ? r.body : undefined;
          },
          20_000,
          'task completion',
        );
        expect(done.data).to.have.length(3);
        expect(done.data[0]).to.include({ name: 'Alpha Book', price: 1299 });

        await waitFor(() => receiver.received.length >= 3, 30_000, 'three delivery attempts');
        const secret = await s.engine.signingSecret('alice');
        const ids = new Set(receiver.received.map((r) => r.headers['webhook-id']));
        expect(ids.size).to.equal(1); // stable across attempts
        for (const r of receiver.received) {
          expect(r.body).to.equal(receiver.received[0].body);
          expect(verifyWebhook(secret, r.headers as Record<string, string>, r.body)).to.equal(true);
          expect(r.headers['content-type']).to.contain('application/json');
        }
        expect(JSON.parse(receiver.received[0].body)).to.deep.equal(done);
        const owner = (await s.engine.authenticateApiKey(s.key))!;
        const [delivery] = await waitFor(
          async () => {
            const d = await listDeliveries(s.engine.db, owner.id, `task:${id}`);
            return d[0]?.status === 'delivered' ? d : undefined;
          },
          10_000,
          'delivery recorded',
        );
        expect(delivery.attempts).to.equal(3);
        // A tampered body does not verify.
        expect(verifyWebhook(secret, receiver.received[2].headers as Record<string, string>, receiver.received[2].body.replace('Alpha', 'Omega'))).to.equal(
          false,
        );
      } finally {
        await receiver.close();
      }
    });

    it('reports a failed task with its error, and another owner gets 404 for it', async () => {
      s.model.script([{ json: productAnswer(s.site.url) }]);
      const submit = await s.api('POST', '/v1/extractor/extract_async', { url: `${s.site.url}/missing-page`, attributes: PRODUCT_ATTRIBUTES });
      expect(submit.status).to.equal(202);
      const failed = await waitFor(
        async () => {
          const r = await s.api('GET', `/v1/extractor/extract_async/${submit.body.task_id}`);
          return r.body.status === 'failed' ? r.body : undefined;
        },
        20_000,
        'task failure',
      );
      expect(failed.error).to.contain('HTTP 404');
      expect(failed).to.not.have.property('data');
      const bob = (await s.engine.createApiKey('bob')).key;
      const other = await s.api('GET', `/v1/extractor/extract_async/${submit.body.task_id}`, undefined, { 'X-API-KEY': bob });
      expect(other.status).to.equal(404);
      const unknown = await s.api('GET', '/v1/extractor/extract_async/00000000-0000-0000-0000-000000000000');
      expect(unknown.status).to.equal(404);
      expect(unknown.body.code).to.equal('NOT_FOUND');
    });

    it('refuses a malformed callback_url with 422 and creates nothing', async () => {
      const res = await s.api('POST', '/v1/extractor/extract_async', { url: `${s.site.url}/laptops`, prompt: 'x', callback_url: 'not a url' });
      expect(res.status).to.equal(422);
      expect(res.body.detail[0].loc).to.deep.equal(['body', 'callback_url']);
      const blocked = await s.api('POST', '/v1/extractor/extract_async', {
        url: `${s.site.url}/laptops`,
        prompt: 'x',
        callback_url: 'http://169.254.169.254/hook',
      });
      expect(blocked.status).to.equal(400);
      expect(blocked.body.code).to.equal('URL_BLOCKED');
    });
  });
}
