// A callback receiver that is down when the task finishes and comes back later: the callback is
// delivered once it is up, every attempt carrying the same webhook-id.
import http from 'node:http';
import { expect } from 'chai';
import { startStack, waitFor } from '../support/stack.ts';
import { startWebhookReceiver } from '../support/webhook-receiver.ts';

describe('chaos: callback receiver down, then up', function () {
  this.timeout(600_000);

  it('delivers once the receiver is back, with the same webhook-id on every attempt', async () => {
    const s = await startStack({ config: { callbacks: { retryDelaySeconds: 1, retryDelayMaxSeconds: 2, maxAttempts: 30 } } });
    const seen: Array<{ id: string; at: number; status: number }> = [];
    let up: http.Server | null = null;
    try {
      s.site.page('/cb', '<!doctype html><html><body><div class="card"><h2>Widget 1</h2></div></body></html>');
      s.model.script(() => ({ json: { records: [{ name: 'Widget 1' }] } }));
      // Take a free port, then close it: the receiver is down (connection refused) from the start.
      const probe = await startWebhookReceiver();
      const { port, url } = probe;
      await probe.close();
      const submit = await s.api('POST', '/v1/extractor/extract_async', { url: `${s.site.url}/cb`, attributes: [{ name: 'name' }], callback_url: url });
      expect(submit.status, submit.text).to.equal(202);
      const taskId = submit.body.task_id as string;
      const failedAttempts = await waitFor(
        async () => {
          const { rows } = await s.engine.db.query<{ attempts: number }>('SELECT attempts FROM callback_deliveries');
          return rows[0]?.attempts >= 3 ? rows[0].attempts : undefined;
        },
        120_000,
        'three failed delivery attempts while the receiver is down',
        200,
      );
      const downFor = Date.now();
      // Back up on the same port: the first attempt gets 503, the next 204.
      up = http.createServer((req, res) => {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          const status = seen.length === 0 ? 503 : 204;
          seen.push({ id: String(req.headers['webhook-id']), at: Date.now(), status });
          expect(JSON.parse(body).task_id).to.equal(taskId);
          res.writeHead(status).end();
        });
      });
      await new Promise<void>((resolve) => up!.listen(port, '127.0.0.1', resolve));
      await waitFor(() => (seen.some((x) => x.status === 204) ? true : undefined), 120_000, 'the delivery after the receiver came back', 100);
      const { rows } = await s.engine.db.query<{ id: string; status: string; attempts: number }>('SELECT id, status, attempts FROM callback_deliveries');
      console.log(
        `      callback: ${failedAttempts}+ refused attempts while down, then ${seen.length} received (503, 204) ${((seen[seen.length - 1].at - downFor) / 1000).toFixed(1)} s after the receiver came back; delivery row ${JSON.stringify(rows[0])}`,
      );
      expect(new Set(seen.map((x) => x.id)).size, 'one webhook-id across attempts').to.equal(1);
      expect(seen[0].id, "the delivery row's id").to.equal(rows[0].id);
      await waitFor(
        async () =>
          (await s.engine.db.query<{ status: string }>('SELECT status FROM callback_deliveries')).rows[0]?.status === 'delivered' ? true : undefined,
        10_000,
        'delivered',
      );
    } finally {
      if (up)
        await new Promise((r) => {
          up!.closeAllConnections();
          up!.close(r);
        });
      await s.close();
    }
  });
});
