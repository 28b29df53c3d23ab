// A team's own Express service with Gleaner inside it: the engine runs in this process (API and a
// worker), Gleaner's HTTP interface is mounted under /scrape behind the service's own sign-in, the
// service calls the engine directly, and it registers a job kind of its own on Gleaner's queue.
// Run: DATABASE_URL=postgres://... node service.ts   (it checks itself, prints what it saw, and stops)
import express from 'express';
import { createEngine, defineJob, loadConfig, type Owner } from '@gleaner/core';
import { createHttpDriver } from '@gleaner/driver-http';
import { createApiRouter } from '@gleaner/server';

// 1. Configuration: options > environment (DATABASE_URL, GLEANER_*) > defaults. This demo reads
//    pages it serves itself, so it allows loopback (the SSRF guard refuses it by default).
const config = loadConfig({ options: { network: { allowNetworks: ['127.0.0.0/8'] }, log: { level: 'warn' } } });

// 2. A job kind of the service's own, run by Gleaner's workers (retries, expiry, shutdown included).
const seen: string[] = [];
let greeted: (who: string) => void = () => {};
const greetJob = defineJob<{ who: string }>({
  name: 'example.greet',
  payloadSchema: { type: 'object', required: ['who'], properties: { who: { type: 'string' } } },
  handler: async ({ who }) => {
    seen.push(who);
    greeted(who);
  },
});

// 3. The engine borrows the drivers it is given: this service created the driver, so it closes it.
const driver = createHttpDriver({ config });
const engine = createEngine({ config, drivers: [driver], jobKinds: [greetJob] });
await engine.startWorker(); // migrations, the queue, and workers in this process

// 4. The host app: its own pages, its own sign-in, Gleaner under /scrape.
const app = express();
app.get('/catalog/kettle', (_req, res) => {
  res.type('html').send('<!doctype html><title>Blue kettle</title><h1>Blue kettle</h1><p>Price: 24.50 EUR</p>');
});
const signedIn = (req: express.Request): string | null => (req.get('x-demo-user') === 'alice' ? 'alice' : null);
app.use('/scrape', createApiRouter(engine, { authenticate: signedIn }));
const server = app.listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

// 5. The service calls the engine directly ...
const alice: Owner = await engine.ensureOwner('alice');
const direct = await engine.extractMarkdown(alice, { url: `${base}/catalog/kettle` });
console.log(JSON.stringify({ step: 'direct markdown', data: direct.data }));

// ... and over HTTP, as its users would, through its own sign-in.
const viaHttp = await fetch(`${base}/scrape/v1/extractor/extract_markdown`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-demo-user': 'alice' },
  body: JSON.stringify({ url: `${base}/catalog/kettle` }),
});
console.log(JSON.stringify({ step: 'mounted markdown', status: viaHttp.status, body: await viaHttp.json() }));
const refused = await fetch(`${base}/scrape/v1/extractor/extract_markdown`, { method: 'POST', body: '{}' });
console.log(JSON.stringify({ step: 'not signed in', status: refused.status }));
const invalid = await fetch(`${base}/scrape/v1/extractor/extract_markdown`, { method: 'POST', headers: { 'x-demo-user': 'alice' }, body: '{"url": 5}' });
console.log(JSON.stringify({ step: 'invalid body', status: invalid.status, body: await invalid.json() }));
const openapi = (await (await fetch(`${base}/scrape/openapi.json`)).json()) as { openapi: string; paths: Record<string, unknown> };
console.log(JSON.stringify({ step: 'openapi', openapi: openapi.openapi, paths: Object.keys(openapi.paths).length }));

// 6. The service's own job, sent on Gleaner's queue and run by the worker.
const done = new Promise<string>((resolve) => (greeted = resolve));
await engine.jobs.send('example.greet', { who: 'the embedding team' });
console.log(JSON.stringify({ step: 'own job', who: await done }));

// 7. Shut down: stop taking requests, stop the engine (graceful for running jobs), close what we own.
server.closeAllConnections();
await new Promise((r) => server.close(r));
await engine.stop();
await driver.close();
console.log(JSON.stringify({ step: 'stopped', jobsSeen: seen.length }));
