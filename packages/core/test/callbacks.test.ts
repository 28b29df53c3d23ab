import { expect } from 'chai';
import {
  CALLBACK_JOB,
  CALLBACK_USER_AGENT,
  JobQueue,
  callbackJobKind,
  callbackPolicy,
  createDatabase,
  enqueueCallback,
  ensureOwner,
  getSigningSecretById,
  listDeliveries,
  migrate,
  signWebhook,
  silentLogger,
  verifyWebhook,
  type CallbackDelivery,
  type ConfigOptions,
  type Database,
} from '@gleaner/core/internal';
import { testSchemas, type TestSchemas } from '../../../test/support/db.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../../test/support/webhook-receiver.ts';
import { waitFor } from '../../../test/support/wait.ts';

// The Standard Webhooks reference test vector (standard-webhooks/standard-webhooks, libraries' tests).
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

describe('callbacks: signing', () => {
  const headers = { 'webhook-id': VECTOR.id, 'webhook-timestamp': String(VECTOR.timestamp), 'webhook-signature': VECTOR.signature };

  it('signs the Standard Webhooks test vector', () => {
    expect(signWebhook(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.body)).to.equal(VECTOR.signature);
    expect(signWebhook(VECTOR.secret.slice('whsec_'.length), VECTOR.id, VECTOR.timestamp, VECTOR.body)).to.equal(VECTOR.signature);
  });

  it('verifies the vector, and refuses a changed body, id, stale timestamp or missing header', () => {
    const now = VECTOR.timestamp + 10;
    expect(verifyWebhook(VECTOR.secret, headers, VECTOR.body, 300, now)).to.equal(true);
    expect(verifyWebhook(VECTOR.secret, new Headers(headers), Buffer.from(VECTOR.body), 300, now)).to.equal(true);
    expect(verifyWebhook(VECTOR.secret, headers, '{"test": 2432232315}', 300, now)).to.equal(false);
    expect(verifyWebhook(VECTOR.secret, { ...headers, 'webhook-id': 'msg_other' }, VECTOR.body, 300, now)).to.equal(false);
    expect(verifyWebhook(VECTOR.secret, headers, VECTOR.body, 300, VECTOR.timestamp + 301)).to.equal(false);
    expect(verifyWebhook(VECTOR.secret, headers, VECTOR.body)).to.equal(false); // 2021 is long past
    expect(verifyWebhook(VECTOR.secret, { 'webhook-id': VECTOR.id, 'webhook-signature': VECTOR.signature }, VECTOR.body, 300, now)).to.equal(false);
  });

  it('accepts any matching entry of a space-separated signature list', () => {
    const now = VECTOR.timestamp;
    const list = `v1a,abc v1,Zm9vYmFy ${VECTOR.signature}`;
    expect(verifyWebhook(VECTOR.secret, { ...headers, 'webhook-signature': list }, VECTOR.body, 300, now)).to.equal(true);
    expect(verifyWebhook(VECTOR.secret, { ...headers, 'webhook-signature': 'v1,Zm9vYmFy v2,x' }, VECTOR.body, 300, now)).to.equal(false);
  });

  it('spreads the default 20 attempts over about a day', () => {
    const p = callbackPolicy({ timeoutMs: 10_000, maxAttempts: 20, retryDelaySeconds: 10, retryDelayMaxSeconds: 7200 });
    expect(p.retryLimit).to.equal(19);
    expect(p.expireInSeconds).to.be.greaterThan(10);
    // pg-boss: retry k waits min(max, delay * 2^(k-1) * (1 + random)); bounds of the whole schedule.
    let low = 0;
    let high = 0;
    for (let k = 1; k <= p.retryLimit; k++) {
      low += Math.min(7200, 10 * 2 ** (k - 1));
      high += Math.min(7200, 10 * 2 ** k);
    }
    expect(low / 3600).to.be.within(16, 30);
    expect(high / 3600).to.be.within(16, 30);
  });
});

interface Setup {
  t: TestSchemas;
  db: Database;
  jobs: JobQueue;
  ownerId: string;
  secret: string;
}

describe('callbacks: delivery through the job queue', function () {
  this.timeout(60_000);
  const setups: Setup[] = [];
  const receivers: WebhookReceiver[] = [];
  const body = { id: 'task_1', status: 'completed', data: { title: 'Ünïcödé – ok', items: [1, 2, 3] } };
  const bodyText = JSON.stringify(body);

  async function setup(options: ConfigOptions = {}): Promise<Setup> {
    const t = testSchemas({
      callbacks: { timeoutMs: 1000, maxAttempts: 3, retryDelaySeconds: 1, retryDelayMaxSeconds: 4, ...options.callbacks },
      network: { allowNetworks: ['127.0.0.0/8'], ...options.network },
    });
    const logger = silentLogger();
    await migrate({ url: t.config.database.url, schema: t.schema, logger });
    const db = createDatabase({ url: t.config.database.url, schema: t.schema, poolMax: 4, logger });
    const jobs = new JobQueue({
      url: t.config.database.url,
      schema: t.jobsSchema,
      poolMax: 4,
      logger,
      pollingSeconds: 0.5,
      batchSize: 4,
      concurrency: 2,
      heartbeatSeconds: 10,
      superviseSeconds: 1,
    });
    jobs.register(callbackJobKind({ db, config: t.config, logger }));
    const s: Setup = { t, db, jobs, ownerId: '', secret: '' };
    setups.push(s);
    await jobs.work();
    s.ownerId = (await ensureOwner(db, 'hooks')).id;
    s.secret = await getSigningSecretById(db, s.ownerId);
    return s;
  }

  async function receiver(...args: Parameters<typeof startWebhookReceiver>): Promise<WebhookReceiver> {
    const r = await startWebhookReceiver(...args);
    receivers.push(r);
    return r;
  }

  function enqueue(s: Setup, url: string, subject = 'task:task_1'): Promise<string> {
    return s.db.tx((tx) => enqueueCallback(tx, s.jobs, { ownerId: s.ownerId, url, subject, body }));
  }

  async function settled(s: Setup, id: string, subject = 'task:task_1'): Promise<CallbackDelivery> {
    return waitFor(
      async () => (await listDeliveries(s.db, s.ownerId, subject)).find((d) => d.id === id && d.status !== 'pending'),
      40_000,
      `delivery ${id} to settle`,
    );
  }

  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
    for (const s of setups.splice(0)) {
      await s.jobs.stop(500).catch(() => undefined);
      await s.db.close();
      await s.t.drop();
    }
  });

  it('retries a 500 and a timeout, then delivers: same webhook-id, identical signed body, 3 attempts', async () => {
    const s = await setup({ callbacks: { maxAttempts: 5 } });
    const r = await receiver((n) => (n === 0 ? 500 : n === 1 ? 'hang' : 204));
    const id = await enqueue(s, r.url);
    expect(id).to.match(/^msg_[0-9a-f]{32}$/);
    const d = await settled(s, id);
    expect(d).to.include({ status: 'delivered', attempts: 3, lastStatus: 204, lastError: null, body: bodyText, url: r.url });
    expect(d.deliveredAt).to.be.instanceOf(Date);
    expect(r.received).to.have.length(3);
    for (const req of r.received) {
      expect(req.method).to.equal('POST');
      expect(req.headers['webhook-id']).to.equal(id);
      expect(req.headers['content-type']).to.equal('application/json');
      expect(req.headers['user-agent']).to.equal(CALLBACK_USER_AGENT);
      expect(req.body).to.equal(bodyText);
      expect(verifyWebhook(s.secret, req.headers, req.body)).to.equal(true);
      expect(verifyWebhook(s.secret, req.headers, req.body.replace('ok', 'ko'))).to.equal(false);
    }
    // Backoff: each retry waited at least retryDelaySeconds after the previous attempt ended.
    expect(r.received[1].at - r.received[0].at).to.be.at.least(900);
    expect(r.received[2].at - r.received[1].at).to.be.at.least(1900 + 900);
  });

  it('treats a redirect as a failed attempt and does not follow it', async () => {
    const s = await setup({ callbacks: { maxAttempts: 1 } });
    const target = await receiver(() => 204);
    const r = await receiver(() => ({ status: 302, headers: { location: target.url } }));
    const id = await enqueue(s, r.url);
    const d = await settled(s, id);
    expect(d).to.include({ status: 'failed', attempts: 1, lastStatus: 302, lastErrorCode: 'FETCH_FAILED' });
    expect(d.lastError).to.contain('redirects are not followed');
    expect(r.received).to.have.length(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(target.received).to.have.length(0);
  });

  it('refuses a loopback target without allowNetworks: URL_BLOCKED, not retried, nothing sent', async () => {
    const s = await setup({ network: { allowNetworks: [] } });
    const r = await receiver(() => 204);
    const literal = await enqueue(s, r.url, 'run:literal');
    const named = await enqueue(s, `http://localhost:${r.port}/hook`, 'run:named');
    for (const [id, subject] of [
      [literal, 'run:literal'],
      [named, 'run:named'],
    ]) {
      const d = await settled(s, id, subject);
      expect(d).to.include({ status: 'failed', attempts: 1, lastStatus: null, lastErrorCode: 'URL_BLOCKED' });
      expect(d.lastError).to.match(/loopback/);
    }
    expect(r.received).to.have.length(0);
  });

  it('gives up after maxAttempts when the target always fails', async () => {
    const s = await setup();
    const r = await receiver(() => ({ status: 503, body: 'down for maintenance' }));
    const id = await enqueue(s, r.url, 'run:r1');
    const d = await settled(s, id, 'run:r1');
    expect(d).to.include({ status: 'failed', attempts: 3, lastStatus: 503, lastErrorCode: 'FETCH_FAILED', nextAttemptAt: null });
    expect(d.lastError).to.contain('503').and.to.contain('down for maintenance');
    expect(r.received.map((q) => q.headers['webhook-id'])).to.deep.equal([id, id, id]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(r.received).to.have.length(3);
  });

  it('records a refused connection as a retryable failure with the next attempt time', async () => {
    const s = await setup({ callbacks: { maxAttempts: 2, retryDelaySeconds: 30, retryDelayMaxSeconds: 60 } });
    const r = await receiver(() => 204);
    const closedUrl = r.url;
    await r.close();
    const id = await enqueue(s, closedUrl);
    const d = await waitFor(async () => (await listDeliveries(s.db, s.ownerId, 'task:task_1')).find((x) => x.attempts === 1), 20_000, 'first attempt');
    expect(d).to.include({ status: 'pending', lastStatus: null, lastErrorCode: 'FETCH_FAILED', id });
    expect(d.lastError).to.contain('connection refused');
    expect(d.nextAttemptAt!.getTime() - d.lastAttemptAt!.getTime()).to.be.within(29_000, 31_000);
  });

  it('is idempotent: running the job again for a delivered callback sends nothing', async () => {
    const s = await setup();
    const r = await receiver(() => 200);
    const id = await enqueue(s, r.url);
    await settled(s, id);
    const jobId = await s.jobs.send(CALLBACK_JOB, { deliveryId: id });
    await waitFor(async () => (await s.jobs.boss.getJobById(CALLBACK_JOB, jobId))?.state === 'completed', 15_000, 'second job');
    expect(r.received).to.have.length(1);
    expect((await listDeliveries(s.db, s.ownerId, 'task:task_1'))[0].attempts).to.equal(1);
  });

  it('records and enqueues in the caller transaction: a rollback leaves neither row nor job', async () => {
    const s = await setup();
    const r = await receiver(() => 204);
    const err = await s.db
      .tx(async (tx) => {
        await enqueueCallback(tx, s.jobs, { ownerId: s.ownerId, url: r.url, subject: 'task:rolled-back', body });
        throw new Error('task update failed');
      })
      .catch((e) => e);
    expect(err.message).to.equal('task update failed');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await listDeliveries(s.db, s.ownerId, 'task:rolled-back')).to.deep.equal([]);
    expect(r.received).to.have.length(0);
    const { rows } = await s.db.query(`SELECT count(*)::int AS n FROM "${s.t.jobsSchema}".job WHERE name = $1`, [CALLBACK_JOB]);
    expect(rows[0].n).to.equal(0);
  });
});
