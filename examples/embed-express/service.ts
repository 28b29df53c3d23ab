// A team's own Express service with Gleaner inside it: the engine runs in this process (API and a
// worker), Gleaner's HTTP interface is mounted under /scrape behind the service's own sign-in, the
// service calls the engine directly, and it registers a job kind of its own on Gleaner's queue.
// docs/embedding.md shows this file block by block; test/embedding-literal.test.ts follows that page.
// Run: node service.ts   (it checks itself, prints what it saw, and stops)
import express from 'express';
import { createEngine, defineJob, loadConfig, type GleanerError, type Owner } from '@gleaner/core';
import { createApiRouter, startDatabase } from '@gleaner/server';

// 1. Configuration: options > environment (DATABASE_URL, OPENAI_API_KEY, GLEANER_*) > defaults. This
//    demo reads pages it serves itself: it allows loopback (the SSRF guard refuses it by default),
//    and its pages need no browser.
const config = loadConfig({
  options: { network: { allowNetworks: ['127.0.0.0/8'] }, browser: { escalation: 'never' }, log: { level: 'warn' } },
});

// 2. The database: DATABASE_URL when set, otherwise an embedded Postgres under the data directory
//    (GLEANER_DATA_DIR, default ~/.local/share/gleaner), started now and stopped in step 8.
const database = await startDatabase(config);

// 3. A job kind of the service's own, run by Gleaner's workers (retries, expiry, shutdown included).
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

// 4. The engine builds the drivers and the model provider the configuration names, from the
//    installed plugin packages, and closes them when it stops.
const engine = createEngine({ config, databaseUrl: database.url, jobKinds: [greetJob] });
await engine.startWorker(); // migrations, the plugins, the queue, and workers in this process

// 5. The host app: its own pages, its own sign-in, Gleaner under /scrape.
const app = express();
app.get('/catalog/kettle', (_req, res) => {
  res.type('html').send('<!doctype html><title>Blue kettle</title><h1>Blue kettle</h1><p>Price: 24.50 EUR</p>');
});
const signedIn = (req: express.Request): string | null => (req.get('x-demo-user') === 'alice' ? 'alice' : null);
app.use('/scrape', createApiRouter(engine, { authenticate: signedIn }));
const server = app.listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

// 6. The service calls the engine directly ...
const alice: Owner = await engine.ensureOwner('alice');
const direct = await engine.extractMarkdown(alice, { url: `${base}/catalog/kettle` });
console.log(JSON.stringify({ step: 'direct markdown', data: direct.data }));
// ... including what needs a model: records as described (MODEL_NOT_CONFIGURED without one).
const extracted = await engine.extract(alice, { url: `${base}/catalog/kettle`, attributes: [{ name: 'title' }, { name: 'price', type: 'number' }] }).then(
  (r) => ({ data: r.data }),
  (err: GleanerError) => ({ error: `${err.code}: ${err.message}` }),
);
console.log(JSON.stringify({ step: 'extract', ...extracted }));

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

// 7. The service's own job, sent on Gleaner's queue and run by the worker.
const done = new Promise<string>((resolve) => (greeted = resolve));
await engine.jobs.send('example.greet', { who: 'the embedding team' });
console.log(JSON.stringify({ step: 'own job', who: await done }));

// 8. Shut down: stop taking requests, stop the engine (graceful for running jobs; it closes the
//    plugins it built), then leave the database (the embedded Postgres stops).
server.closeAllConnections();
await new Promise((r) => server.close(r));
await engine.stop();
await database.stop();
console.log(JSON.stringify({ step: 'stopped', jobsSeen: seen.length }));
