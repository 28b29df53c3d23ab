// The configuration loader: the only module that reads process.env (options > environment > file > defaults).
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { GleanerError } from '../errors.ts';
import type { ConfigOptions, GleanerConfig } from './types.ts';

export interface FieldSpec {
  type: 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';
  env: string;
  default: unknown;
  description: string;
  secret?: boolean;
  [keyword: string]: unknown;
}

const schemaUrl = new URL('./schema.json', import.meta.url);
/** schema.json's fields (packages/core/src/config; shipped in dist), keyed by dotted path ("server.port"). */
export const CONFIG_FIELDS: Readonly<Record<string, FieldSpec>> = Object.freeze(
  (JSON.parse(readFileSync(schemaUrl, 'utf8')) as { fields: Record<string, FieldSpec> }).fields,
);

const ajv = new Ajv({ allErrors: true, strict: false });
const validators = new Map(
  Object.entries(CONFIG_FIELDS).map(([path, spec]) => {
    const { env: _e, default: _d, description: _s, secret: _x, ...schema } = spec;
    return [path, ajv.compile(schema)] as const;
  }),
);

export interface LoadConfigInput {
  /** Programmatic options (highest precedence), nested like the resolved config. */
  options?: ConfigOptions;
  /** Environment to read; defaults to process.env. */
  env?: Record<string, string | undefined>;
}

type Source = { label: string; values: Map<string, unknown> };

function parseEnvValue(spec: FieldSpec, raw: string): unknown {
  switch (spec.type) {
    case 'integer':
    case 'number': {
      const n = Number(raw.trim());
      return raw.trim() === '' || Number.isNaN(n) ? raw : n;
    }
    case 'boolean': {
      const v = raw.trim().toLowerCase();
      if (['1', 'true', 'yes', 'on'].includes(v)) return true;
      if (['0', 'false', 'no', 'off', ''].includes(v)) return false;
      return raw;
    }
    case 'array':
      return raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    case 'object':
      if (raw.trim() === '') return {};
      try {
        return JSON.parse(raw);
      } catch {
        return raw;
      }
    default:
      return raw;
  }
}

/** Flattens a nested object into dotted paths, reporting keys the schema does not know. */
function flatten(obj: unknown, label: string, problems: string[]): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const walk = (value: unknown, prefix: string) => {
    if (value === undefined) return;
    if (prefix && CONFIG_FIELDS[prefix]) {
      out.set(prefix, value);
      return;
    }
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [k, v] of Object.entries(value)) walk(v, prefix ? `${prefix}.${k}` : k);
      return;
    }
    problems.push(`${label}: unknown key "${prefix}"`);
  };
  walk(obj, '');
  return out;
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = target;
  for (const p of parts.slice(0, -1)) node = (node[p] ??= {}) as Record<string, unknown>;
  node[parts[parts.length - 1]] = value;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/**
 * Resolves the configuration once: options > environment > GLEANER_CONFIG file > defaults.
 * Every value is checked against schema.json; unknown keys are rejected.
 */
export function loadConfig(input: LoadConfigInput = {}): Readonly<GleanerConfig> {
  const env = input.env ?? process.env;
  const problems: string[] = [];

  const fromOptions = flatten(input.options ?? {}, 'options', problems);
  const fromEnv = new Map<string, unknown>();
  for (const [path, spec] of Object.entries(CONFIG_FIELDS)) {
    const raw = env[spec.env];
    if (raw !== undefined) fromEnv.set(path, parseEnvValue(spec, raw));
  }
  const file = (fromOptions.get('configFile') ?? fromEnv.get('configFile') ?? '') as string;
  let fromFile = new Map<string, unknown>();
  if (file) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new GleanerError('CONFIG_INVALID', `cannot read configuration file ${file}: ${(err as Error).message}`);
    }
    fromFile = flatten(parsed, `file ${file}`, problems);
  }

  const sources: Source[] = [
    { label: 'options', values: fromOptions },
    { label: 'environment', values: fromEnv },
    { label: `file ${file}`, values: fromFile },
  ];
  const resolved: Record<string, unknown> = {};
  for (const [path, spec] of Object.entries(CONFIG_FIELDS)) {
    const source = sources.find((s) => s.values.has(path));
    const value = source ? source.values.get(path) : structuredClone(spec.default);
    const validate = validators.get(path)!;
    if (!validate(value)) {
      const where = source?.label === 'environment' ? `${spec.env}=${JSON.stringify(env[spec.env])}` : `${path} (${source?.label ?? 'default'})`;
      const why = (validate.errors ?? []).map((e) => `${e.instancePath || 'value'} ${e.message}`).join('; ');
      problems.push(`${where}: ${why}`);
      continue;
    }
    setPath(resolved, path, value);
  }
  const metrics = resolved.metrics as { mode?: string; token?: string } | undefined;
  // A bearer mode without a token would lock the scraper out with no way in; say so at start.
  if (metrics?.mode === 'bearer' && !metrics.token) problems.push('metrics.token (GLEANER_METRICS_TOKEN) is required when metrics.mode is "bearer"');
  const snapshots = resolved.snapshots as { storage?: string; directory?: string } | undefined;
  if (snapshots?.storage === 'directory' && !snapshots.directory)
    problems.push('snapshots.directory (GLEANER_SNAPSHOT_DIRECTORY) is required when snapshots.storage is "directory"');
  if (problems.length) {
    throw new GleanerError('CONFIG_INVALID', `invalid configuration:\n  ${problems.join('\n  ')}`, { details: problems });
  }
  return deepFreeze(resolved as unknown as GleanerConfig);
}

/** The configuration with secrets masked, for logs and diagnostics. */
export function redactConfig(config: Readonly<GleanerConfig>): Record<string, unknown> {
  const copy = structuredClone(config) as unknown as Record<string, unknown>;
  for (const [path, spec] of Object.entries(CONFIG_FIELDS)) {
    if (!spec.secret) continue;
    const parts = path.split('.');
    let node = copy;
    for (const p of parts.slice(0, -1)) node = node[p] as Record<string, unknown>;
    const last = parts[parts.length - 1];
    if (node[last]) node[last] = '***';
  }
  // Passwords in connection strings and proxy URLs.
  const db = copy.database as Record<string, string>;
  if (db.url) db.url = db.url.replace(/\/\/([^:@/]+):[^@/]+@/, '//$1:***@');
  return copy;
}

/**
 * Conventions of the environment that are not Gleaner settings, read here like every other variable:
 * `NO_COLOR` (no-color.org: a set, non-empty value turns terminal colours off) and `XDG_DATA_HOME`
 * (where per-user data lives; an absolute path, else unset).
 */
export function environmentConventions(env: NodeJS.ProcessEnv = process.env): { noColor: boolean; xdgDataHome: string | null } {
  const xdg = env.XDG_DATA_HOME;
  return { noColor: Boolean(env.NO_COLOR), xdgDataHome: xdg && xdg.startsWith('/') ? xdg : null };
}
