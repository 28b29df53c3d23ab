// Postgres (a private embedded instance this suite starts) stopped for 5 s under load and started
// again: 503 while it is down, served again within 10 s of its return, and the server never crashed.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { createEngine, loadConfig, silentLogger } from '@gleaner/core';
import { createApp } from '../../packages/server/src/http/app.ts';
import { apiRoutes } from '../../packages/server/src/routes/index.ts';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../../packages/server/src/embedded-postgres.ts';
import { freePort } from '../support/process.ts';

describe('chaos: Postgres stopped for 5 s under load', function () {
  this.timeout(600_000);

  it('answers 503 while it is down and recovers within 10 s of its return', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gleaner-chaos-pg-'));
    const pgPort = await freePort();
    const startPg = () => startEmbeddedPostgres({ dataDir, port: pgPort, osUser: 'gleaner-pg', logger: silentLogger() });
    let pg: EmbeddedPostgresHandle = await startPg();
    const config = loadConfig({
      env: {},
      options: { log: { level: 'silent' }, database: { connectTimeoutMs: 1_000 }, limits: { requestsPerMinute: 0, concurrentJobs: 0, queuedJobs: 0 } },
    });
    const engine = createEngine({ config, logger: silentLogger(), databaseUrl: pg.url });
    await engine.start();
    const server: Server = createApp({ engine, logger: silentLogger(), routes: apiRoutes(), bodyLimitBytes: 1 << 20 }).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const key = (await engine.createApiKey('alice')).key;
    const log: Array<{ at: number; status: number; path: string }> = [];
    let running = true;
    const load = Array.from({ length: 8 }, async (_, w) => {
      while (running) {
        const p = w % 2 ? '/v1/scrapers' : '/readyz';
        const status = await fetch(base + p, { headers: { 'X-API-KEY': key }, signal: AbortSignal.timeout(15_000) }).then(
          (r) => r.status,
          () => 0,
        );
        log.push({ at: Date.now(), status, path: p });
        await new Promise((r) => setTimeout(r, 20));
      }
    });
    try {
      await new Promise((r) => setTimeout(r, 2_000));
      await pg.stop();
      const downAt = Date.now(); // stopped: nothing answers from here until the restart begins
      await new Promise((r) => setTimeout(r, 5_000));
      const restartAt = Date.now();
      pg = await startPg();
      const upAt = Date.now();
      // Served again: the first 200 on both paths after the return.
      let recoveredAt = 0;
      while (Date.now() - upAt < 30_000) {
        const ok = ['/v1/scrapers', '/readyz'].every((p) => log.some((e) => e.at > upAt && e.path === p && e.status === 200));
        if (ok) {
          recoveredAt = Math.max(...['/v1/scrapers', '/readyz'].map((p) => log.find((e) => e.at > upAt && e.path === p && e.status === 200)!.at));
          break;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      running = false;
      await Promise.all(load);
      // A request that started before the stop may finish just after it: allow its 15 ms round trip.
      const during = log.filter((e) => e.at > downAt + 100 && e.at < restartAt);
      const statuses = (list: typeof log) => list.reduce<Record<number, number>>((a, e) => ({ ...a, [e.status]: (a[e.status] ?? 0) + 1 }), {});
      console.log(
        `      postgres outage: ${log.length} requests; while down ${JSON.stringify(statuses(during))}; recovered ${((recoveredAt - upAt) / 1000).toFixed(2)} s after the restart; overall ${JSON.stringify(statuses(log))}`,
      );
      expect(recoveredAt, 'recovered').to.be.greaterThan(0);
      expect(recoveredAt - upAt).to.be.below(10_000);
      expect(during.length).to.be.greaterThan(10);
      expect(
        during.every((e) => e.status === 503),
        JSON.stringify(statuses(during)),
      ).to.equal(true);
      expect(
        log.every((e) => e.status === 200 || e.status === 503),
        'only 200 and 503, and every request answered',
      ).to.equal(true);
    } finally {
      running = false;
      server.closeAllConnections();
      server.close();
      await engine.stop().catch(() => undefined);
      await pg.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
