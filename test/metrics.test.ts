import { expect } from 'chai';
import { startStack, waitFor, type Stack } from './support/stack.ts';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';
import { buildBookScraper, openBookshop } from './support/books.ts';
import { request } from './support/http.ts';
import { freePort, startCli, waitForExit } from './support/process.ts';
import { TEST_DATABASE_URL, dropSchemas } from './support/db.ts';

/** One sample's value from Prometheus text, matched by name and labels (all given labels must match). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

async function scrape(s: Stack, headers: Record<string, string> = {}): Promise<{ status: number; text: string; type: string | null }> {
  const r = await request(s.url, 'GET', '/metrics', { headers });
  return { status: r.status, text: r.text, type: r.headers.get('content-type') };
}

describe('metrics: /metrics after real work', function () {
  this.timeout(120_000);
  let s: Stack;
  let hooks: WebhookReceiver;
  before(async () => {
    s = await startStack({ config: { callbacks: { retryDelaySeconds: 1, retryDelayMaxSeconds: 1 } } });
    hooks = await startWebhookReceiver();
  });
  after(async () => {
    await s?.close();
    await hooks?.close();
  });

  it('exposes HTTP, job, model, browser, callback and run series with the values the work produced', async () => {
    const shelfUrl = openBookshop(s);
    // A page that is an empty mount point until its script runs: fetched plainly, then in Chromium.
    s.site.route(
      '/app',
      (_q, res) =>
        void res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(
            '<!doctype html><html><head><title>App</title></head><body><div id="root"></div><script>document.getElementById("root").innerHTML = "<h1>Rendered by script</h1><p>" + "words ".repeat(40) + "</p>";</script></body></html>',
          ),
    );

    const extracted = await s.api('POST', '/v1/extract', {
      url: shelfUrl(1),
      attributes: [
        { name: 'title', type: 'string' },
        { name: 'pages', type: 'number' },
      ],
    });
    expect(extracted.status, extracted.text).to.equal(200);
    const md = await s.api('POST', '/v1/extract_markdown', { url: `${s.site.url}/app` });
    expect(md.status, md.text).to.equal(200);
    expect(md.body.data).to.contain('Rendered by script');
    const bad = await s.api('POST', '/v1/extract', { url: 'not a url' });
    expect(bad.status).to.equal(422);

    const scraperId = await buildBookScraper(s, shelfUrl(2));
    const run = await s.api('POST', '/v1/scrapers/run_async', { template_id: scraperId, url: [shelfUrl(3), shelfUrl(4)], callback_url: `${hooks.url}/done` });
    expect(run.status, run.text).to.equal(202);
    await waitFor(() => hooks.received.length > 0, 30_000, 'the run callback');

    // The callback attempt is counted after its row is updated; give the handler a moment to return.
    const text = await waitFor(
      async () => {
        const r = await scrape(s);
        return (sample(r.text, 'gleaner_callback_deliveries_total', { outcome: 'delivered' }) ?? 0) >= 1 ? r.text : undefined;
      },
      10_000,
      'the callback counted',
    );

    expect(sample(text, 'gleaner_http_requests_total', { method: 'POST', route: '/v1/extract', status: '200' })).to.equal(1);
    expect(sample(text, 'gleaner_http_requests_total', { method: 'POST', route: '/v1/extract', status: '422' })).to.equal(1);
    expect(sample(text, 'gleaner_http_requests_total', { method: 'GET', route: '/v1/extractor/:scraper_id', status: '200' })).to.be.greaterThan(0);
    expect(sample(text, 'gleaner_http_request_duration_seconds_count', { method: 'POST', route: '/v1/extract', status: '200' })).to.equal(1);
    expect(sample(text, 'gleaner_http_request_duration_seconds_bucket', { route: '/v1/extract', status: '200', le: '+Inf' })).to.equal(1);

    expect(sample(text, 'gleaner_jobs_total', { kind: 'scraper.generate', state: 'completed' })).to.equal(1);
    expect(sample(text, 'gleaner_jobs_total', { kind: 'run.item', state: 'completed' })).to.equal(2);
    expect(sample(text, 'gleaner_job_duration_seconds_count', { kind: 'run.item' })).to.equal(2);

    const model = { provider: 'openai', model: 'test-model' };
    const calls = sample(text, 'gleaner_model_calls_total', { ...model, outcome: 'ok' })!;
    expect(calls).to.equal(s.model.chatRequests().length);
    expect(calls).to.be.at.least(3); // the extraction, the scraper's standard read and its recipe
    const recipeCalls = s.model.chatRequests().filter((r) => r.body.response_format?.json_schema?.schema?.properties?.container).length;
    expect(sample(text, 'gleaner_model_tokens_total', { ...model, type: 'input' })).to.equal(300 * recipeCalls + 200 * (calls - recipeCalls));
    expect(sample(text, 'gleaner_model_tokens_total', { ...model, type: 'output' })).to.equal(80 * recipeCalls + 40 * (calls - recipeCalls));
    expect(sample(text, 'gleaner_model_call_duration_seconds_count', model)).to.equal(calls);

    expect(sample(text, 'gleaner_browser_launches_total', { driver: 'playwright' })).to.equal(1);
    expect(sample(text, 'gleaner_browser_browsers', { driver: 'playwright' })).to.equal(1);
    expect(sample(text, 'gleaner_browser_pages', { driver: 'playwright' })).to.equal(0);
    expect(sample(text, 'gleaner_browser_retirements_total', { driver: 'playwright' })).to.equal(0);
    expect(sample(text, 'gleaner_browser_kills_total', { driver: 'playwright' })).to.equal(0);

    expect(sample(text, 'gleaner_runs_finished_total', { status: 'completed' })).to.equal(1);
    expect(sample(text, 'gleaner_callback_deliveries_total', { outcome: 'delivered' })).to.equal(1);
    expect(text).to.contain('# TYPE gleaner_queue_jobs gauge');
    expect(text).to.contain('# TYPE gleaner_queue_oldest_job_age_seconds gauge');
    expect(text).to.contain('process_cpu_seconds_total');
  });

  it('reports queue depth and the age of the oldest waiting job', async () => {
    // Jobs of a kind no worker of this stack serves stay queued: park two and read the gauges.
    const schema = s.engine.config.jobs.schema;
    await s.engine.jobs.boss.createQueue('metrics.parked');
    await s.engine.jobs.boss.send('metrics.parked', {});
    await s.engine.jobs.boss.send('metrics.parked', {});
    await s.engine.db.query(`UPDATE "${schema}".job SET created_on = now() - interval '90 seconds' WHERE name = 'metrics.parked'`);
    const { text } = await scrape(s);
    expect(sample(text, 'gleaner_queue_jobs', { kind: 'metrics.parked', state: 'created' })).to.equal(2);
    const age = sample(text, 'gleaner_queue_oldest_job_age_seconds', { kind: 'metrics.parked' })!;
    expect(age).to.be.within(90, 150);
  });
});

describe('metrics: access modes', function () {
  this.timeout(60_000);

  it('is served on the API port only, not on the legacy agents port', async () => {
    const s = await startStack({ worker: false, agents: true });
    try {
      expect((await scrape(s)).status).to.equal(200);
      expect((await request(s.agentsUrl, 'GET', '/metrics')).status).to.equal(404);
    } finally {
      await s.close();
    }
  });

  it('answers 404 when disabled', async () => {
    const s = await startStack({ worker: false, config: { metrics: { mode: 'disabled' } } });
    try {
      const r = await scrape(s);
      expect(r.status).to.equal(404);
      expect(JSON.parse(r.text).code).to.equal('NOT_FOUND');
    } finally {
      await s.close();
    }
  });

  it('wants the configured bearer token in bearer mode', async () => {
    const s = await startStack({ worker: false, config: { metrics: { mode: 'bearer', token: 'scrape-me' } } });
    try {
      const none = await scrape(s);
      expect(none.status).to.equal(401);
      expect(JSON.parse(none.text)).to.deep.include({ code: 'UNAUTHORIZED' });
      expect(JSON.parse(none.text).detail).to.contain('GLEANER_METRICS_TOKEN');
      expect((await scrape(s, { Authorization: 'Bearer wrong' })).status).to.equal(401);
      const ok = await scrape(s, { Authorization: 'Bearer scrape-me' });
      expect(ok.status).to.equal(200);
      expect(ok.type).to.contain('text/plain');
      expect(ok.text).to.contain('# TYPE gleaner_http_requests_total counter');
      // The two refused scrapes were counted, labelled by the endpoint's path.
      expect(sample(ok.text, 'gleaner_http_requests_total', { route: '/metrics', status: '401' })).to.equal(2);
    } finally {
      await s.close();
    }
  });
});

describe('metrics: gleaner worker serves /metrics on metrics.workerPort', function () {
  this.timeout(90_000);
  const schema = `t_wm_${Math.random().toString(36).slice(2, 8)}`;
  after(() => dropSchemas(TEST_DATABASE_URL, schema, `${schema}_jobs`));

  it("answers with the worker's series behind the bearer token, and nothing else on that port", async () => {
    const port = await freePort();
    const child = startCli(['worker'], {
      DATABASE_URL: TEST_DATABASE_URL,
      GLEANER_DB_SCHEMA: schema,
      GLEANER_JOBS_SCHEMA: `${schema}_jobs`,
      GLEANER_METRICS: 'bearer',
      GLEANER_METRICS_TOKEN: 'w-token',
      GLEANER_METRICS_PORT: String(port),
      GLEANER_HOST: '127.0.0.1',
    });
    try {
      const url = `http://127.0.0.1:${port}`;
      const ok = await waitFor(
        async () => {
          if (child.exitCode !== null) throw new Error(`worker exited: ${child.output()}`);
          const r = await fetch(`${url}/metrics`, { headers: { Authorization: 'Bearer w-token' } }).catch(() => null);
          return r?.status === 200 ? r.text() : undefined;
        },
        60_000,
        "the worker's /metrics",
      );
      expect(ok).to.contain('# TYPE gleaner_jobs_total counter');
      expect(ok).to.contain('# TYPE gleaner_queue_jobs gauge');
      expect((await fetch(`${url}/metrics`)).status).to.equal(401);
      expect((await fetch(`${url}/readyz`)).status).to.equal(404);
      child.kill('SIGTERM');
      expect(await waitForExit(child, 30_000)).to.equal(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
