/**
 * GET /v1/status (a Gleaner extension): what this process can do, part by part — the database, the
 * model and the browsers — so that a missing model or browser shows before a request fails on it.
 * /readyz stays the load balancer's check (Postgres only).
 */
import { MODEL_SETTINGS_HINT, type Driver, type Engine } from '@gleaner/core';

type Part = { status: string; detail?: string } & Record<string, unknown>;

export interface StatusBody {
  /** `ok` when the database answers (model and browsers are reported, not required); else `unavailable`. */
  status: 'ok' | 'unavailable';
  database: Part;
  model: Part;
  browsers: Part;
}

function browserPart(engine: Engine): Part {
  const browsers = engine.context.drivers.filter((d) => d.capabilities.javascript);
  if (!browsers.length) {
    return { status: 'not_configured', detail: 'browser.escalation is "never": pages are read over plain HTTP only and the agent cannot run' };
  }
  return {
    status: 'available',
    detail: 'browsers start on the first page that needs one',
    drivers: browsers.map((d) => {
      const stats = (d as Driver & { stats?: () => { browsers?: number; activePages?: number } }).stats?.();
      return { name: d.name, running: stats?.browsers ?? 0, active_pages: stats?.activePages ?? 0 };
    }),
  };
}

export async function statusBody(engine: Engine): Promise<StatusBody> {
  let database: Part = { status: 'ok' };
  try {
    await engine.ready();
  } catch (err) {
    database = { status: 'unavailable', detail: (err as Error).message };
  }
  const provider = engine.context.model?.provider;
  const model: Part = provider
    ? { status: 'configured', provider: provider.name, model: provider.model }
    : {
        status: 'not_configured',
        detail: `extraction, parsing, the agent and scraper builds answer 503 MODEL_NOT_CONFIGURED; markdown and classic scraper runs work. To enable them, ${MODEL_SETTINGS_HINT}`,
      };
  return { status: database.status === 'ok' ? 'ok' : 'unavailable', database, model, browsers: browserPart(engine) };
}

const PART = {
  type: 'object',
  required: ['status'],
  properties: { status: { type: 'string' }, detail: { type: 'string' } },
  additionalProperties: true,
} as const;

export const STATUS_SCHEMA = {
  type: 'object',
  required: ['status', 'database', 'model', 'browsers'],
  properties: {
    status: { enum: ['ok', 'unavailable'] },
    database: { ...PART, description: '`ok`, or `unavailable` with the reason' },
    model: { ...PART, description: '`configured` with `provider` and `model`, or `not_configured` with the settings to set' },
    browsers: { ...PART, description: '`available` with `drivers` ({name, running, active_pages}), or `not_configured`' },
  },
} as const;
