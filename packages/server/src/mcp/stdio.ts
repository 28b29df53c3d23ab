/**
 * `gleaner mcp`: the MCP server on stdio, as AI assistants launch it. It runs the engine in this
 * process on the configured Postgres (like `gleaner worker`), acting as the owner of GLEANER_API_KEY;
 * with a worker of its own unless told not to (then the workers of a running `gleaner serve` or
 * `gleaner worker` do the background work). stdout carries the protocol only: logs go to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { GleanerError, type GleanerConfig, type Logger } from '@gleaner/core';
import { openRuntime } from '../runtime.ts';
import { startupWiring } from '../wiring.ts';
import { createMcpServer } from './server.ts';

export async function serveMcpStdio(config: Readonly<GleanerConfig>, logger: Logger): Promise<void> {
  if (!config.client.apiKey) {
    throw new GleanerError(
      'UNAUTHORIZED',
      'gleaner mcp acts as the owner of an API key: set GLEANER_API_KEY (create one with `gleaner keys create --owner NAME`)',
    );
  }
  const rt = await openRuntime({ config, logger, jobs: true }, await startupWiring(config, logger));
  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= rt.close().then(
      () => process.exit(0),
      (err: Error) => {
        logger.error({ err: err.message }, 'MCP server shutdown failed');
        process.exit(1);
      },
    ));
  try {
    const owner = await rt.engine.authenticateApiKey(config.client.apiKey);
    if (!owner) throw new GleanerError('UNAUTHORIZED', 'GLEANER_API_KEY is not a valid API key (revoked, or from another database?)');
    if (config.worker.enabled) await rt.engine.startWorker();
    const server = createMcpServer(rt.engine, owner, logger);
    server.onclose = () => void close();
    // The client ending our stdin (or a signal) is the end of the session.
    process.stdin.once('end', () => void close());
    process.once('SIGTERM', () => void close());
    process.once('SIGINT', () => void close());
    await server.connect(new StdioServerTransport());
    logger.info({ owner: owner.name }, 'MCP server on stdio');
  } catch (err) {
    await rt.close();
    throw err;
  }
}
