// Issue 16, item 6: per-owner request rate and queued-job limits, kept in Postgres so that two
// API servers on the same database share one budget; 429 with Retry-After past either. Issue 23,
// item 5: both are off or generous by default (a queue accepts a backlog), and the per-owner limit
// on execution is the workers' (test/fair-share.test.ts).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { createEngine, silentLogger, type Engine } from '@gleaner/core/internal';
import { createApp } from '../packages/server/src/http/app.ts';
import { apiRoutes } from '../packages/server/src/routes/index.ts';
import { startStack, type Stack } from './support/stack.ts';
import { request } from './support/http.ts';

/** A second API server (its own engine and pool) on the stack's database: another process, as far as state goes. */
async function secondServer(s: Stack): Promise<{ url: string; engine: Engine; close(): Promise<void> }> {
  const engine = createEngine({ config: s.schemas.config, logger: silentLogger(), llm: s.engine.context.model?.provider });
  await engine.start();
  const server: Server = createApp({ engine, logger: silentLogger(), routes: apiRoutes(), bodyLimitBytes: 1 << 20 }).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    engine,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await engine.stop();
    },
  };
}

/** Waits for a fresh minute when the current one is nearly over, so a burst stays in one window. */
async function freshWindow(): Promise<void> {
  const intoMinute = (Date.now() / 1000) % 60;
  if (intoMinute > 45) await new Promise((r) => setTimeout(r, (61 - intoMinute) * 1000));
}

/** The stack with `limits`, and a second API server on its database, for the describe block. */
function twoServers(limits: { requestsPerMinute: number; queuedJobs: number }) {
  const servers = {} as { s: Stack; other: Awaited<ReturnType<typeof secondServer>> };
  before(async () => {
    servers.s = await startStack({ worker: false, config: { limits } });
    servers.other = await secondServer(servers.s);
  });
  after(async () => {
    await servers.other?.close();
    await servers.s?.close();
  });
  return servers;
}

describe('per-owner limits (issue 16 item 6)', () => {
  describe('request rate, across two API servers', () => {
    const servers = twoServers({ requestsPerMinute: 10, queuedJobs: 0 });

    it('shares one budget: 12 requests over two servers give 10 answers and 2 429s with Retry-After', async () => {
      const { s, other } = servers;
      await freshWindow();
      const statuses: number[] = [];
      let limited: { status: number; headers: Headers; body: any } | null = null;
      for (let i = 0; i < 6; i++) {
        for (const base of [s.url, other.url]) {
          const res = await request(base, 'GET', '/v1/scrapers', { headers: { 'X-API-KEY': s.key } });
          statuses.push(res.status);
          if (res.status === 429) limited = res;
        }
      }
      expect(statuses.filter((x) => x === 200)).to.have.length(10);
      expect(statuses.filter((x) => x === 429)).to.have.length(2);
      expect(limited!.body.code).to.equal('RATE_LIMITED');
      expect(limited!.body.detail).to.contain('10 requests per minute');
      const retryAfter = Number(limited!.headers.get('retry-after'));
      expect(retryAfter).to.be.within(1, 60);
      // Another owner has its own budget; unauthenticated endpoints are not counted.
      const bob = (await s.engine.createApiKey('bob')).key;
      expect((await request(other.url, 'GET', '/v1/scrapers', { headers: { 'X-API-KEY': bob } })).status).to.equal(200);
      expect((await request(s.url, 'GET', '/readyz')).status).to.equal(200);
    });
  });

  describe('queued jobs', () => {
    const servers = twoServers({ requestsPerMinute: 0, queuedJobs: 2 });

    it('refuses a third unfinished job on either server with 429, and takes one again when a job finishes', async () => {
      const { s, other } = servers;
      const body = { url: `${s.site.url}/`, prompt: 'anything' };
      expect((await s.api('POST', '/v1/extractor/extract_async', body)).status).to.equal(202);
      expect((await request(other.url, 'POST', '/v1/extractor/extract_async', { body, headers: { 'X-API-KEY': s.key } })).status).to.equal(202);
      const third = await request(other.url, 'POST', '/v1/extractor/extract_async', { body, headers: { 'X-API-KEY': s.key } });
      expect(third.status).to.equal(429);
      expect(third.body.code).to.equal('RATE_LIMITED');
      expect(third.body.detail).to.contain('limits.queuedJobs').and.contain('GLEANER_MAX_QUEUED_JOBS');
      expect(third.headers.get('retry-after')).to.equal('10');
      const run = await s.api('POST', '/v1/scrapers/run_async', { scraper_id: 'x', urls: [`${s.site.url}/`] });
      expect(run.status).to.equal(429);
      // Reading is not a job: still served.
      expect((await s.api('GET', '/v1/scrapers')).status).to.equal(200);
      const { rows } = await s.engine.db.query<{ n: number }>('SELECT count(*)::int AS n FROM tasks');
      expect(rows[0].n).to.equal(2);
      await s.engine.db.query(`UPDATE tasks SET status = 'completed' WHERE id = (SELECT id FROM tasks LIMIT 1)`);
      expect((await s.api('POST', '/v1/extractor/extract_async', body)).status).to.equal(202);
    });
  });
});
