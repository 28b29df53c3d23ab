/**
 * The MCP streamable HTTP transport at /mcp, behind the API key. Stateless: every POST gets its own
 * server and transport for the authenticated owner, so any API process can answer any request (no
 * session to pin to a process behind a load balancer). Progress notifications of a long call travel
 * on that POST's own event stream.
 */
import type { NextFunction, Request, Response } from 'express';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { GleanerError, type Engine, type Logger, type Owner } from '@gleaner/core';
import { authenticate } from '../http/auth.ts';
import { createMcpServer } from './server.ts';

const KEY_MESSAGE =
  'Missing or invalid credentials for /mcp: send your API key in the X-API-KEY header or as "Authorization: Bearer <API key>" (an access token works too).';

/** X-API-KEY, or an API key or access token as a bearer credential (many MCP clients only set Authorization). */
async function mcpOwner(engine: Engine, req: Request): Promise<Owner> {
  if (req.get('X-API-KEY')) return authenticate(engine, req, 'apiKey');
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.get('Authorization') ?? '')?.[1];
  const owner = bearer?.startsWith('glk_') ? await engine.authenticateApiKey(bearer) : bearer ? await engine.authenticateAccessToken(bearer) : null;
  if (!owner) throw new GleanerError('UNAUTHORIZED', KEY_MESSAGE);
  return owner;
}

export function mcpEndpoint(engine: Engine, logger: Logger) {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'POST') {
      // No sessions, hence no server-initiated stream (GET) and nothing to end (DELETE).
      res
        .status(405)
        .setHeader('Allow', 'POST')
        .json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless; POST JSON-RPC messages.' }, id: null });
      return;
    }
    try {
      const owner = await mcpOwner(engine, req);
      await engine.limits.countRequest(owner); // the same per-owner rate limit as the API's routes
      const server = createMcpServer(engine, owner, logger);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (err) {
      if (res.headersSent) {
        logger.warn({ err: (err as Error).message }, 'MCP request failed after the response started');
        res.end();
        return;
      }
      next(err);
    }
  };
}
