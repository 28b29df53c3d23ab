import { once } from 'node:events';
import type { Server } from 'node:http';
import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Engine, Logger } from '@gleaner/core';
import { createApp, errorBody } from './http/app.ts';
import { apiRoutes } from './routes/index.ts';
import { createLegacyApp } from './legacy/app.ts';
import { metricsEndpoint } from './http/metrics.ts';

export interface Listener {
  server: Server;
  port: number;
  /** A URL for this machine's clients (loopback when bound to every interface). */
  url: string;
  /** What the socket is bound to, e.g. `0.0.0.0:8080` (every interface) or `127.0.0.1:8080`. */
  address: string;
  close(): Promise<void>;
}

/** The start-up line: the address actually bound, and how to reach it from this machine. */
function listeningFields(l: Listener, path = ''): { listening: string; url: string } {
  return { listening: l.address, url: `${l.url}${path}` };
}

function describeListener(what: string, l: Listener, path = ''): string {
  const everywhere = /^(0\.0\.0\.0|\[::\]):/.test(l.address);
  return `${what} listening on ${l.address}${everywhere ? ` (every interface; ${l.url}${path} from this machine)` : ''}`;
}

async function listen(app: express.Express, host: string, port: number, requestTimeoutMs: number): Promise<Listener> {
  const server = app.listen(port, host);
  server.requestTimeout = requestTimeoutMs;
  server.headersTimeout = Math.min(60_000, requestTimeoutMs);
  server.keepAliveTimeout = 5_000;
  await once(server, 'listening');
  const addr = server.address() as AddressInfo;
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    server,
    port: addr.port,
    url: `http://${shownHost}:${addr.port}`,
    address: `${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Idle keep-alive sockets would hold close() open; in-flight requests get a moment to finish.
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 5_000).unref();
      }),
  };
}

/** Starts the API listener. */
export async function startApi(engine: Engine, logger: Logger, opts: { host: string; port: number }): Promise<Listener> {
  const { config } = engine;
  const app = createApp({ engine, logger, routes: apiRoutes(), bodyLimitBytes: config.server.bodyLimitBytes, metrics: true, mcp: true, console: true });
  const listener = await listen(app, opts.host, opts.port, config.server.requestTimeoutMs);
  logger.info(listeningFields(listener), describeListener('API', listener));
  return listener;
}

/**
 * Starts the deprecated legacy agents listener ({agents_url}, server.agentsPort). Its responses link
 * to the current API: `apiUrl` when given, else the request's host on `apiPort` (default server.port).
 */
export async function startAgents(engine: Engine, logger: Logger, opts: { host: string; port: number; apiUrl?: string; apiPort?: number }): Promise<Listener> {
  const { config } = engine;
  const app = createLegacyApp({ engine, logger, bodyLimitBytes: config.server.bodyLimitBytes, apiUrl: opts.apiUrl, apiPort: opts.apiPort });
  const listener = await listen(app, opts.host, opts.port, config.server.requestTimeoutMs);
  logger.info(listeningFields(listener), describeListener('legacy agents interface (deprecated)', listener));
  return listener;
}

/**
 * A listener serving only GET /metrics, for `gleaner worker` (metrics.workerPort): a worker has no
 * API port, yet its jobs, model calls and browsers are what a dashboard wants to see.
 */
export async function startMetricsListener(engine: Engine, logger: Logger, opts: { host: string; port: number }): Promise<Listener> {
  const app = express();
  app.disable('x-powered-by');
  app.get('/metrics', metricsEndpoint(engine, logger));
  app.use((req, res) => void res.status(404).json(errorBody(`no endpoint ${req.method} ${req.path} (this port serves GET /metrics only)`, 'NOT_FOUND')));
  const listener = await listen(app, opts.host, opts.port, 30_000);
  logger.info(listeningFields(listener, '/metrics'), describeListener('metrics', listener, '/metrics'));
  return listener;
}
