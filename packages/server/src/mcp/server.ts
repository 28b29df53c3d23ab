/**
 * Gleaner as an MCP server for one owner: the tools of tools.ts on the official SDK's low-level
 * Server, which takes JSON Schemas as they are (the high-level McpServer wants Zod schemas, which
 * would mean a second copy of every request schema). The transports (stdio, streamable HTTP) only
 * decide who the owner is.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { compileSchema, toGleanerError, toIssues, validationFailed, type Engine, type Logger, type Owner } from '@gleaner/core';
import { TOOLS, type ToolDef, type ToolOutput } from './tools.ts';
import { VERSION } from '../version.ts';

// Compiled on a tool's first call, not when the module loads.
const validators = new Map<string, ReturnType<typeof compileSchema>>();
const validatorOf = (t: ToolDef) => validators.get(t.name) ?? validators.set(t.name, compileSchema(t.inputSchema, 'body')).get(t.name)!;

function result(out: ToolOutput): CallToolResult {
  if ('text' in out) return { content: [{ type: 'text', text: out.text }], ...(out.json ? { structuredContent: out.json } : {}) };
  return { content: [{ type: 'text', text: JSON.stringify(out.json, null, 2) }], structuredContent: out.json };
}

/** A failed call is a tool result with isError (the model reads it and can correct itself), not a protocol error. */
function failure(err: unknown, logger: Logger, tool: string): CallToolResult {
  const e = toGleanerError(err);
  if (e.code === 'INTERNAL') logger.error({ err, tool }, 'MCP tool failed');
  const issues = e.code === 'VALIDATION_FAILED' && Array.isArray(e.details) ? (e.details as Array<{ loc: unknown[]; msg: string }>) : null;
  const text = issues ? `VALIDATION_FAILED: ${issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; ')}` : `${e.code}: ${e.message}`;
  return { isError: true, content: [{ type: 'text', text }], structuredContent: { code: e.code, detail: issues ?? e.message } };
}

function describe(t: ToolDef) {
  return {
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: t.inputSchema as { type: 'object'; properties?: Record<string, object> },
    annotations: { title: t.title, readOnlyHint: t.readOnly, openWorldHint: true },
  };
}

export function createMcpServer(engine: Engine, owner: Owner, logger: Logger): Server {
  const server = new Server(
    { name: 'gleaner', title: 'Gleaner', version: VERSION },
    {
      capabilities: { tools: {} },
      instructions:
        'Gleaner extracts structured data from web pages: extract/parse/markdown for one page, agent_extract to browse, and scrapers (generate_scraper, get_scraper, run_scraper, get_run) for pages of the same layout without a model.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS.map(describe) }));
  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const tool = TOOLS.find((t) => t.name === req.params.name);
    if (!tool)
      return failure(
        validationFailed([{ loc: ['params', 'name'], msg: `no tool ${req.params.name}; tools: ${TOOLS.map((t) => t.name).join(', ')}`, type: 'value_error' }]),
        logger,
        req.params.name,
      );
    // A copy: ajv fills in defaults, as it does for HTTP bodies.
    const args = structuredClone(req.params.arguments ?? {}) as Record<string, unknown>;
    const validate = validatorOf(tool);
    if (!validate(args)) return failure(validationFailed(toIssues(validate.errors, 'body')), logger, tool.name);
    const token = req.params._meta?.progressToken;
    let reported = -1;
    const progress = async (done: number, total: number | undefined, message: string) => {
      // MCP wants progress to increase with every notification.
      if (token === undefined || done <= reported) return;
      reported = done;
      await extra.sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress: done, ...(total ? { total } : {}), message },
      });
    };
    try {
      return result(await tool.call({ engine, owner, signal: extra.signal, progress }, args));
    } catch (err) {
      return failure(err, logger, tool.name);
    }
  });
  return server;
}
