// Schedules, change tracking, notifications, monitor health, the snapshot archive and replays,
// through the API against a fixture shop whose pages change between firings. Firings here are
// POST /v1/schedules/{id}/trigger (the same path a scheduler firing takes, run for run); the
// scheduler itself, with several worker processes, is in schedules-scheduler.test.ts.
import { expect } from 'chai';
import { verifyWebhook, type Owner } from '@gleaner/core/internal';
import { startStack, waitFor, type Stack } from './support/stack.ts';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';
import { insertShopScraper, monitorShop, type MonitorShop } from './support/monitor-site.ts';
import { request } from './support/http.ts';

/** A cron expression that will not fire during the test (the firings are triggers). */
const NEVER_SOON = '0 0 1 1 *';

describe('schedules: change tracking, notifications, snapshots and replay', function () {
  this.timeout(120_000);
  let s: Stack;
  let alice: Owner;
  let hooks: WebhookReceiver;
  let shop: MonitorShop;
  let scraperId: string;

  before(async function () {
    this.timeout(60_000);
    s = await startStack({ config: { scrapers: { selfHeal: false }, schedules: { failuresBeforeDegraded: 2 } } });
    alice = (await s.engine.authenticateApiKey(s.key))!;
    hooks = await startWebhookReceiver();
    shop = monitorShop(s.site, ['/shop/a', '/shop/b', '/shop/broken', '/shop/drift']);
    shop.pages.set('/shop/a', [
      { name: 'Widget 1', price: 10 },
      { name: 'Widget 2', price: 20 },
      { name: 'Widget 3', price: 30 },
    ]);
    shop.pages.set('/shop/b', [{ name: 'Gadget 1', price: 5 }]);
    scraperId = await insertShopScraper(s.engine, alice, shop.url('/shop/a'), shop.pages.get('/shop/a')!);
  });
  after(async () => {
    await hooks?.close();
    await s?.close();
  });

  /** Fires the schedule now and waits until its run is finished and compared. */
  async function fire(scheduleId: string, withRecords = true) {
    const t = await s.api('POST', `/v1/schedules/${scheduleId}/trigger`);
    expect(t.status, t.text).to.equal(202);
    return waitFor(
      async () => {
        const r = await s.api('GET', `/v1/scrapers/run_async/${t.body.run_id}${withRecords ? '?changes=true' : ''}`);
        return r.body.changes ? r.body : undefined;
      },
      60_000,
      'the run to be compared',
      100,
    );
  }
  const byState = (run: any, state: string) =>
    run.changes.records.filter((r: any) => r.state === state).map((r: any) => `${r.url.split('/').pop()}:${r.record.name}`);
  const runHooks = (scheduleId: string) => hooks.received.map((h) => JSON.parse(h.body)).filter((b) => b.schedule_id === scheduleId);

  it('validates schedules (422 with the reason), scopes them by owner and keeps them in pg-boss', async () => {
    const bad = await s.api('POST', '/v1/schedules', { template_id: scraperId, cron: 'every day' });
    expect(bad.status).to.equal(422);
    expect(bad.body.detail[0].loc).to.deep.equal(['body', 'cron']);
    const seconds = await s.api('POST', '/v1/schedules', { template_id: scraperId, cron: '*/5 * * * * *' });
    expect(seconds.status).to.equal(422);
    expect(seconds.body.detail[0].msg).to.match(/five fields/);
    const range = await s.api('POST', '/v1/schedules', { template_id: scraperId, cron: '61 * * * *' });
    expect(range.status).to.equal(422);
    const tz = await s.api('POST', '/v1/schedules', { template_id: scraperId, cron: '0 9 * * *', timezone: 'Mars/Olympus' });
    expect(tz.status).to.equal(422);
    expect(tz.body.detail[0]).to.include({ type: 'value_error' }).and.have.property('loc').deep.equal(['body', 'timezone']);
    const key = await s.api('POST', '/v1/schedules', { template_id: scraperId, cron: '0 9 * * *', key_attributes: ['sku'] });
    expect(key.status).to.equal(422);
    expect(key.body.detail[0].loc).to.deep.equal(['body', 'key_attributes', 0]);
    expect((await s.api('POST', '/v1/schedules', { template_id: 'nope', cron: '0 9 * * *' })).status).to.equal(404);
    expect((await s.api('POST', '/v1/schedules', { cron: '0 9 * * *' })).status).to.equal(422);

    const created = await s.api('POST', '/v1/schedules', { template_id: scraperId, cron: '30 9 * * 1-5', timezone: 'Europe/Paris', name: 'weekdays' });
    expect(created.status, created.text).to.equal(201);
    const id = created.body.schedule_id;
    expect(created.body).to.include({ status: 'active', health: 'ok', notify: 'changes', timezone: 'Europe/Paris', snapshots: true });
    const next = new Date(created.body.next_run_at);
    expect(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit' }).format(next)).to.equal('09:30');
    expect(await s.engine.jobs.boss.getSchedule('schedule.fire', id)).to.include({ cron: '30 9 * * 1-5', timezone: 'Europe/Paris' });

    const bob = (await s.engine.createApiKey('bob')).key;
    expect((await request(s.url, 'GET', `/v1/schedules/${id}`, { headers: { 'X-API-KEY': bob } })).status).to.equal(404);
    expect((await request(s.url, 'POST', `/v1/schedules/${id}/trigger`, { headers: { 'X-API-KEY': bob } })).status).to.equal(404);
    expect((await request(s.url, 'GET', '/v1/schedules', { headers: { 'X-API-KEY': bob } })).body.schedules).to.deep.equal([]);

    const paused = await s.api('POST', `/v1/schedules/${id}/pause`);
    expect(paused.body).to.include({ status: 'paused', next_run_at: null });
    expect(await s.engine.jobs.boss.getSchedule('schedule.fire', id)).to.equal(null);
    const patched = await s.api('PATCH', `/v1/schedules/${id}`, { cron: '0 7 * * *', notify: 'always' });
    expect(patched.body).to.include({ cron: '0 7 * * *', notify: 'always', status: 'paused' });
    expect((await s.api('PATCH', `/v1/schedules/${id}`, { timezone: 'Nowhere/Land' })).status).to.equal(422);
    const resumed = await s.api('POST', `/v1/schedules/${id}/resume`);
    expect(resumed.body.status).to.equal('active');
    expect(await s.engine.jobs.boss.getSchedule('schedule.fire', id)).to.include({ cron: '0 7 * * *' });
    const list = await s.api('GET', '/v1/schedules');
    expect(list.body.schedules.map((x: any) => x.schedule_id)).to.include(id);
    expect((await s.api('DELETE', `/v1/schedules/${id}`)).status).to.equal(200);
    const doc = (await request(s.url, 'GET', '/openapi.json')).body;
    for (const [path, method] of [
      ['/v1/schedules', 'post'],
      ['/v1/schedules/{schedule_id}', 'patch'],
      ['/v1/schedules/{schedule_id}/trigger', 'post'],
      ['/v1/runs/{run_id}/items/{n}/snapshot', 'get'],
      ['/v1/snapshots/usage', 'get'],
      ['/v1/scrapers/{scraper_id}/replay', 'post'],
    ])
      expect(doc.paths[path]?.[method]?.tags, `${method} ${path}`).to.deep.equal(['gleaner']);
    expect((await s.api('GET', `/v1/schedules/${id}`)).status).to.equal(404);
    expect(await s.engine.jobs.boss.getSchedule('schedule.fire', id)).to.equal(null);
  });

  it('tracks every record between firings: new, unchanged, changed, removed, unknown; notifies on changes only, signed', async () => {
    const created = await s.api('POST', '/v1/schedules', {
      template_id: scraperId,
      cron: NEVER_SOON,
      url: [shop.url('/shop/a'), shop.url('/shop/b')],
      callback_url: hooks.url,
      notify: 'changes',
    });
    expect(created.status, created.text).to.equal(201);
    const id = created.body.schedule_id;

    const first = await fire(id);
    expect(first.schedule_id).to.equal(id);
    expect(first.changes.baseline_run_id).to.equal(null);
    expect(first.changes.counts).to.deep.equal({ new: 4, unchanged: 0, changed: 0, removed: 0, unknown: 0 });
    await waitFor(() => runHooks(id).length === 1, 30_000, 'the first notification');

    const second = await fire(id);
    expect(second.changes.baseline_run_id).to.equal(first.run_id);
    expect(second.changes.counts).to.deep.equal({ new: 0, unchanged: 4, changed: 0, removed: 0, unknown: 0 });
    expect(second.changes.records).to.deep.equal([]);

    // Between firings: a price changes, a product disappears, one appears; page b is down.
    shop.pages.set('/shop/a', [
      { name: 'Widget 1', price: 11 },
      { name: 'Widget 2', price: 20 },
      { name: 'Widget 4', price: 40 },
    ]);
    shop.failing.set('/shop/b', 500);
    const third = await fire(id);
    expect(third.status).to.equal('completed_partial');
    expect(third.changes.counts).to.deep.equal({ new: 1, unchanged: 1, changed: 1, removed: 1, unknown: 1 });
    expect(byState(third, 'new')).to.deep.equal(['a:Widget 4']);
    expect(byState(third, 'removed')).to.deep.equal(['a:Widget 3']);
    expect(byState(third, 'unknown')).to.deep.equal(['b:Gadget 1']);
    const changed = third.changes.records.find((r: any) => r.state === 'changed');
    expect(changed).to.deep.include({ url: shop.url('/shop/a'), record: { name: 'Widget 1', price: 11 }, fields: [{ field: 'price', old: 10, new: 11 }] });

    // Page b is back with a new price: compared with the last run where it succeeded (the second).
    shop.failing.delete('/shop/b');
    shop.pages.set('/shop/b', [{ name: 'Gadget 1', price: 6 }]);
    const fourth = await fire(id);
    expect(fourth.changes.counts).to.deep.equal({ new: 0, unchanged: 3, changed: 1, removed: 0, unknown: 0 });
    expect(fourth.changes.records[0]).to.deep.include({ state: 'changed', fields: [{ field: 'price', old: 5, new: 6 }] });
    const summaryOnly = await s.api('GET', `/v1/scrapers/run_async/${fourth.run_id}`);
    expect(summaryOnly.body.changes).to.not.have.property('records');

    // notify "changes": runs 1, 3 and 4, not the unchanged second; each signed with the owner's secret.
    await waitFor(() => runHooks(id).length >= 3, 30_000, 'three notifications');
    await new Promise((r) => setTimeout(r, 1000));
    const notes = runHooks(id);
    expect(notes.map((b) => b.run_id)).to.deep.equal([first.run_id, third.run_id, fourth.run_id]);
    expect(notes[1]).to.include({ event: 'run.finished', status: 'completed_partial' });
    expect(notes[1].changes.counts).to.deep.equal(third.changes.counts);
    expect(notes[1].changes.records).to.have.length(4);
    const secret = await s.engine.signingSecret('alice');
    for (const h of hooks.received) expect(verifyWebhook(secret, h.headers as Record<string, string>, h.body)).to.equal(true);

    const runs = await s.api('GET', `/v1/runs?schedule_id=${id}`);
    expect(runs.body.runs.map((r: any) => r.run_id)).to.deep.equal([fourth.run_id, third.run_id, second.run_id, first.run_id]);
    expect(runs.body.runs[1].changes).to.deep.equal(third.changes.counts);
    expect(runs.body.runs.every((r: any) => r.schedule_id === id)).to.equal(true);
    const view = await s.api('GET', `/v1/schedules/${id}`);
    expect(view.body.last_run).to.deep.include({ run_id: fourth.run_id, changes: fourth.changes.counts });
  });

  it('keys records by key_attributes when given', async () => {
    shop.pages.set('/shop/a', [{ name: 'Widget 1', price: 11 }]);
    const created = await s.api('POST', '/v1/schedules', { template_id: scraperId, cron: NEVER_SOON, url: shop.url('/shop/a'), key_attributes: ['price'] });
    const id = created.body.schedule_id;
    await fire(id);
    shop.pages.set('/shop/a', [{ name: 'Widget One', price: 11 }]);
    const next = await fire(id);
    // Keyed by price, the renamed product is the same record with a changed name.
    expect(next.changes.counts).to.deep.include({ changed: 1, new: 0, removed: 0 });
    expect(next.changes.records[0].fields).to.deep.equal([{ field: 'name', old: 'Widget 1', new: 'Widget One' }]);
  });

  it('archives each fetched page byte-identical, deduplicated, and replays a scraper on it without fetching', async () => {
    shop.pages.set('/shop/a', [
      { name: 'Widget 1', price: 11 },
      { name: 'Widget 5', price: 50 },
    ]);
    const created = await s.api('POST', '/v1/schedules', { template_id: scraperId, cron: NEVER_SOON, url: [shop.url('/shop/a'), shop.url('/shop/b')] });
    const id = created.body.schedule_id;
    const run = await fire(id);
    const snap = await fetch(`${s.url}/v1/runs/${run.run_id}/items/0/snapshot`, { headers: { 'X-API-KEY': s.key } });
    expect(snap.status).to.equal(200);
    expect(snap.headers.get('content-type')).to.match(/^text\/html/);
    expect(snap.headers.get('x-gleaner-snapshot-url')).to.equal(shop.url('/shop/a'));
    const bytes = Buffer.from(await snap.arrayBuffer());
    expect(bytes.equals(Buffer.from(shop.served.get('/shop/a')!.at(-1)!, 'utf8'))).to.equal(true);
    const missing = await s.api('GET', `/v1/runs/${run.run_id}/items/5/snapshot`);
    expect(missing.status).to.equal(404);
    const other = await request(s.url, 'GET', `/v1/runs/${run.run_id}/items/0/snapshot`, {
      headers: { 'X-API-KEY': (await s.engine.createApiKey('carol')).key },
    });
    expect(other.status).to.equal(404);

    // The same pages again: stored once.
    const before = await s.api('GET', '/v1/snapshots/usage');
    await fire(id);
    const after = await s.api('GET', '/v1/snapshots/usage');
    expect(after.body.pages).to.equal(before.body.pages + 2);
    expect(after.body.documents).to.equal(before.body.documents);
    expect(after.body.stored_bytes).to.equal(before.body.stored_bytes);
    expect(after.body.ratio).to.be.above(1);

    // A replay reads the archive only: no request reaches the site.
    const requests = s.site.requests.length;
    const replay = await s.api('POST', `/v1/scrapers/${scraperId}/replay`, { run_id: run.run_id });
    expect(replay.status, replay.text).to.equal(200);
    expect(s.site.requests.length).to.equal(requests);
    expect(replay.body.pages).to.equal(2);
    expect(replay.body.data[shop.url('/shop/a')]).to.deep.equal([
      { name: 'Widget 1', price: 11 },
      { name: 'Widget 5', price: 50 },
    ]);
    expect(replay.body.changes.counts).to.deep.include({ unchanged: 3, new: 0, changed: 0, removed: 0 });
    expect((await s.api('POST', `/v1/scrapers/${scraperId}/replay`, { run_id: run.run_id, version: 9 })).status).to.equal(404);
    expect((await s.api('POST', `/v1/scrapers/${scraperId}/replay`, {})).status).to.equal(422);
    // A one-off run keeps no pages unless asked.
    const plain = await s.api('POST', '/v1/scrapers/run', { template_id: scraperId, url: shop.url('/shop/a') });
    expect((await s.api('GET', `/v1/runs/${plain.body.run_id}/items/0/snapshot`)).status).to.equal(404);
    expect((await s.api('POST', `/v1/scrapers/${scraperId}/replay`, { run_id: plain.body.run_id })).status).to.equal(404);
    // Unless the owner keeps every run's pages by default (a run's own flag still wins).
    expect((await s.api('GET', '/v1/snapshots/settings')).body).to.deep.equal({ runs: false, extractions: false, tasks: false });
    expect((await s.api('PUT', '/v1/snapshots/settings', { runs: 'yes' })).status).to.equal(422);
    expect((await s.api('PUT', '/v1/snapshots/settings', { runs: true })).body).to.deep.equal({ runs: true, extractions: false, tasks: false });
    const kept = await s.api('POST', '/v1/scrapers/run', { template_id: scraperId, url: shop.url('/shop/a') });
    expect((await s.api('GET', `/v1/runs/${kept.body.run_id}/items/0/snapshot`)).status).to.equal(200);
    const optedOut = await s.api('POST', '/v1/scrapers/run', { template_id: scraperId, url: shop.url('/shop/a'), snapshots: false });
    expect((await s.api('GET', `/v1/runs/${optedOut.body.run_id}/items/0/snapshot`)).status).to.equal(404);
    await s.api('PUT', '/v1/snapshots/settings', { runs: false });
  });

  it('marks a monitor degraded once after failures in a row (schedules.failuresBeforeDegraded: 2), in the list and /metrics, and notifies once', async () => {
    shop.failing.set('/shop/broken', 404);
    const created = await s.api('POST', '/v1/schedules', {
      template_id: scraperId,
      cron: NEVER_SOON,
      url: shop.url('/shop/broken'),
      callback_url: hooks.url,
      notify: 'failures',
    });
    const id = created.body.schedule_id;
    await fire(id, false);
    expect((await s.api('GET', `/v1/schedules/${id}`)).body).to.include({ health: 'ok', consecutive_failures: 1 });
    await fire(id, false);
    await fire(id, false);
    const view = (await s.api('GET', '/v1/schedules')).body.schedules.find((x: any) => x.schedule_id === id);
    expect(view).to.include({ health: 'degraded', consecutive_failures: 3 });
    expect(view.health_reason).to.match(/runs in a row failed/);
    const metrics = await fetch(`${s.url}/metrics`).then((r) => r.text());
    expect(metrics).to.match(/gleaner_schedules\{status="active",health="degraded"\} 1/);
    await waitFor(() => runHooks(id).length >= 4, 30_000, 'three failure notifications and one health notification');
    await new Promise((r) => setTimeout(r, 1000));
    const events = runHooks(id).map((b) => b.event);
    expect(events.filter((e) => e === 'run.finished')).to.have.length(3);
    expect(events.filter((e) => e === 'schedule.degraded')).to.have.length(1);

    // Back to records: healthy again, said once.
    shop.failing.delete('/shop/broken');
    shop.pages.set('/shop/broken', [{ name: 'Widget 1', price: 12 }]);
    await fire(id, false);
    expect((await s.api('GET', `/v1/schedules/${id}`)).body).to.include({ health: 'ok', health_reason: null });
    await waitFor(() => runHooks(id).some((b) => b.event === 'schedule.recovered'), 30_000, 'the recovery notification');
  });

  it('marks a monitor degraded at once when its pages stop yielding records (layout drift)', async () => {
    shop.pages.set('/shop/drift', [{ name: 'Widget 1', price: 10 }]);
    const created = await s.api('POST', '/v1/schedules', { template_id: scraperId, cron: NEVER_SOON, url: shop.url('/shop/drift') });
    const id = created.body.schedule_id;
    expect((await fire(id, false)).changes.counts.new).to.equal(1);
    shop.pages.set('/shop/drift', []);
    const empty = await fire(id);
    expect(empty.status).to.equal('failed');
    // Not a removal: the page gave nothing the recipe could read, so its records are unknown.
    expect(empty.changes.counts).to.deep.equal({ new: 0, unchanged: 0, changed: 0, removed: 0, unknown: 1 });
    const view = await s.api('GET', `/v1/schedules/${id}`);
    expect(view.body).to.include({ health: 'degraded', consecutive_failures: 1 });
    expect(view.body.health_reason).to.match(/^layout drift: layout changed/);
  });

  it('stops a schedule whose scraper is deleted, with the reason', async () => {
    const other = await insertShopScraper(s.engine, alice, shop.url('/shop/a'), [{ name: 'Widget 1', price: 11 }]);
    const created = await s.api('POST', '/v1/schedules', { template_id: other, cron: NEVER_SOON });
    const id = created.body.schedule_id;
    expect((await s.api('DELETE', `/v1/extractor/${other}`)).status).to.equal(200);
    const view = await s.api('GET', `/v1/schedules/${id}`);
    expect(view.body).to.include({ status: 'stopped', next_run_at: null });
    expect(view.body.status_reason).to.match(/was deleted/);
    expect(await s.engine.jobs.boss.getSchedule('schedule.fire', id)).to.equal(null);
    expect((await s.api('POST', `/v1/schedules/${id}/trigger`)).status).to.equal(409);
    expect((await s.api('POST', `/v1/schedules/${id}/resume`)).status).to.equal(409);
  });
});
