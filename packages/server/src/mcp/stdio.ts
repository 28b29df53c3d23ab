/**
 * `gleaner mcp`: the MCP server on stdio, as AI assistants launch it — a client of a running Gleaner
 * (GLEANER_SERVER and GLEANER_API_KEY, like `gleaner extract`), never the database: each JSON-RPC
 * request from stdin is POSTed to the server's stateless /mcp endpoint (mcp/http.ts) and what the
 * server answers (progress notifications, then the response) is written to stdout. So the tools, the
 * owner and the workers are the server's, and it works from any directory. A cancellation from the
 * client ends that request's HTTP call, which stops the tool on the server. Logs go to stderr.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { GleanerError, type Logger } from '@gleaner/core';

export interface McpBridgeOptions {
  /** Base URL of the Gleaner server (GLEANER_SERVER). */
  server: string;
  /** API key of the owner the tools act for (GLEANER_API_KEY). */
  apiKey: string;
}

const isRequest = (m: JSONRPCMessage): m is JSONRPCMessage & { id: RequestId; method: string } => 'method' in m && 'id' in m;
const isResponse = (m: JSONRPCMessage): m is JSONRPCMessage & { id: RequestId } => !('method' in m) && 'id' in m;

/** What the assistant shows when the server cannot answer: what failed and which setting to check. */
function explain(err: unknown, endpoint: URL): string {
  if (err instanceof StreamableHTTPError && (err.code === 401 || err.code === 403)) {
    return `the Gleaner server at ${endpoint.origin} refused GLEANER_API_KEY (HTTP ${err.code}); create a key there with \`gleaner keys create --owner NAME\``;
  }
  if (err instanceof StreamableHTTPError) return `the Gleaner server at ${endpoint.origin} answered HTTP ${err.code}: ${err.message}`;
  const why = (err as Error & { cause?: Error }).cause?.message ?? (err as Error).message;
  return `cannot reach the Gleaner server at ${endpoint.origin} (${why}); is \`gleaner serve\` running there? (GLEANER_SERVER)`;
}

export async function serveMcpStdio(opts: McpBridgeOptions, logger: Logger): Promise<void> {
  if (!opts.apiKey) {
    throw new GleanerError(
      'UNAUTHORIZED',
      'gleaner mcp acts as the owner of an API key of a running Gleaner server: set GLEANER_API_KEY (create one there with `gleaner keys create --owner NAME`) and GLEANER_SERVER',
    );
  }
  let endpoint: URL;
  try {
    endpoint = new URL('/mcp', opts.server);
  } catch {
    throw new GleanerError('CONFIG_INVALID', `GLEANER_SERVER ${JSON.stringify(opts.server)} is not a URL (e.g. http://127.0.0.1:8080)`);
  }
  const stdio = new StdioServerTransport();
  /** One HTTP transport per request in flight: closing it aborts that request's POST. */
  const inFlight = new Map<RequestId, StreamableHTTPClientTransport>();
  const reply = (m: JSONRPCMessage) => stdio.send(m).catch((err: Error) => logger.warn({ err: err.message }, 'MCP: writing to stdout failed'));

  async function forward(message: JSONRPCMessage): Promise<void> {
    const http = new StreamableHTTPClientTransport(endpoint, { requestInit: { headers: { 'X-API-KEY': opts.apiKey } } });
    const id = isRequest(message) ? message.id : undefined;
    if (id !== undefined) inFlight.set(id, http);
    const finish = () => {
      if (id !== undefined && inFlight.get(id) === http) inFlight.delete(id);
      void http.close();
    };
    http.onmessage = (m) => {
      void reply(m);
      if (isResponse(m) && m.id === id) finish();
    };
    http.onerror = (err) => logger.debug({ err: err.message }, 'MCP: HTTP transport');
    try {
      await http.start();
      await http.send(message);
      if (id === undefined) finish();
    } catch (err) {
      const cancelled = id !== undefined && !inFlight.has(id);
      finish();
      if (cancelled || id === undefined) return; // the client cancelled it, or a notification: nobody waits for an answer
      logger.warn({ method: (message as { method: string }).method, err: (err as Error).message }, 'MCP request failed');
      await reply({ jsonrpc: '2.0', id, error: { code: -32603, message: explain(err, endpoint) } });
    }
  }

  stdio.onmessage = (message) => {
    if ('method' in message && message.method === 'notifications/cancelled') {
      const requestId = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      const http = requestId === undefined ? undefined : inFlight.get(requestId);
      if (requestId !== undefined) inFlight.delete(requestId);
      void http?.close(); // ends the POST: the server closes that request's MCP server and its tool's signal aborts
      return;
    }
    // The stateless endpoint keeps no session, so `initialized` has nothing to tell it.
    if ('method' in message && message.method === 'notifications/initialized') return;
    if (isResponse(message)) return; // Gleaner's tools ask the client nothing
    void forward(message);
  };
  let closing = false;
  const close = () => {
    if (closing) return;
    closing = true;
    for (const http of inFlight.values()) void http.close();
    void stdio.close().finally(() => process.exit(0));
  };
  stdio.onclose = close;
  // The client ending our stdin (or a signal) is the end of the session.
  process.stdin.once('end', close);
  process.once('SIGTERM', close);
  process.once('SIGINT', close);
  await stdio.start();
  logger.info({ server: endpoint.origin }, 'MCP server on stdio, a client of the Gleaner server');
}
