// The configuration loader: the only module that reads process.env (options > environment > file > defaults).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';
import { GleanerError } from '../errors.ts';
import { KNOWN_PLUGINS } from '../plugins/registry.ts';
import type { ConfigOptions, GleanerConfig } from './types.ts';

export interface FieldSpec {
  type: 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';
  env: string;
  default: unknown;
  description: string;
  secret?: boolean;
  [keyword: string]: unknown;
}

/** Settings declared in one file: core's schema.json, or a plugin package's settings.json. */
type SettingsFile = { fields: Record<string, FieldSpec> };

const schemaUrl = new URL('./schema.json', import.meta.url);
/** schema.json's fields (packages/core/src/config; shipped in dist): core's own settings. */
const CORE_FIELDS = (JSON.parse(readFileSync(schemaUrl, 'utf8')) as SettingsFile).fields;

/**
 * Adds declared settings after the known ones: each after the last setting of its section ("browser."),
 * else at the end. A setting declared twice is refused (two packages would read one variable).
 */
function withSettings(base: Readonly<Record<string, FieldSpec>>, extra: Record<string, FieldSpec>, from: string): Record<string, FieldSpec> {
  const entries = Object.entries(base);
  for (const [path, spec] of Object.entries(extra)) {
    if (Object.hasOwn(base, path) || entries.some(([p]) => p === path)) {
      throw new GleanerError('CONFIG_INVALID', `setting "${path}" of ${from} is already declared`);
    }
    const section = `${path.split('.')[0]}.`;
    const last = entries.findLastIndex(([p]) => p.startsWith(section));
    entries.splice(last === -1 ? entries.length : last + 1, 0, [path, spec]);
  }
  return Object.fromEntries(entries);
}

/**
 * The settings the known plugin packages declare (KNOWN_PLUGINS; each package's `settings.json`
 * export), for those installed. Read by package name, as the registry imports them: core does not
 * depend on its plugins.
 */
function knownPluginFields(): Record<string, FieldSpec> {
  const require = createRequire(import.meta.url);
  let fields: Record<string, FieldSpec> = {};
  const packages = new Set(Object.values(KNOWN_PLUGINS).flatMap((table) => Object.values(table)));
  for (const specifier of packages) {
    let file: string;
    try {
      file = require.resolve(`${specifier}/settings.json`);
    } catch {
      continue; // not installed, or declares no settings
    }
    fields = withSettings(fields, (JSON.parse(readFileSync(file, 'utf8')) as SettingsFile).fields, specifier);
  }
  return fields;
}

/**
 * Every setting, keyed by dotted path ("server.port"): core's, then those of the known plugins that
 * are installed (`openai.*`, `ollama.*`, `browser.seleniumUrl`), each declared by its package.
 */
export const CONFIG_FIELDS: Readonly<Record<string, FieldSpec>> = Object.freeze(withSettings(CORE_FIELDS, knownPluginFields(), 'a known plugin'));

const ajv = new Ajv({ allErrors: true, strict: false });
const validators = new WeakMap<FieldSpec, ValidateFunction>();
function validatorOf(spec: FieldSpec): ValidateFunction {
  let validate = validators.get(spec);
  if (!validate) {
    const { env: _e, default: _d, description: _s, secret: _x, ...schema } = spec;
    validate = ajv.compile(schema);
    validators.set(spec, validate);
  }
  return validate;
}

export interface LoadConfigInput {
  /** Programmatic options (highest precedence), nested like the resolved config. */
  options?: ConfigOptions;
  /** Environment to read; defaults to process.env. */
  env?: Record<string, string | undefined>;
  /**
   * Settings a plugin outside the known ones declares (same format as CONFIG_FIELDS), read like
   * core's: from the environment, the file and `options`, checked, with their defaults.
   */
  settings?: Record<string, FieldSpec>;
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
function flatten(obj: unknown, label: string, problems: string[], fields: Readonly<Record<string, FieldSpec>>): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const walk = (value: unknown, prefix: string) => {
    if (value === undefined) return;
    if (prefix && Object.hasOwn(fields, prefix)) {
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
  const fields = input.settings ? withSettings(CONFIG_FIELDS, input.settings, 'loadConfig({settings})') : CONFIG_FIELDS;

  const fromOptions = flatten(input.options ?? {}, 'options', problems, fields);
  const fromEnv = new Map<string, unknown>();
  for (const [path, spec] of Object.entries(fields)) {
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
    fromFile = flatten(parsed, `file ${file}`, problems, fields);
  }

  const sources: Source[] = [
    { label: 'options', values: fromOptions },
    { label: 'environment', values: fromEnv },
    { label: `file ${file}`, values: fromFile },
  ];
  const resolved: Record<string, unknown> = {};
  for (const [path, spec] of Object.entries(fields)) {
    const source = sources.find((s) => s.values.has(path));
    const value = source ? source.values.get(path) : structuredClone(spec.default);
    const validate = validatorOf(spec);
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

/** The configuration with secrets masked, for logs and diagnostics (`settings`: as given to loadConfig). */
export function redactConfig(config: Readonly<GleanerConfig>, settings: Record<string, FieldSpec> = {}): Record<string, unknown> {
  const copy = structuredClone(config) as unknown as Record<string, unknown>;
  for (const [path, spec] of Object.entries({ ...CONFIG_FIELDS, ...settings })) {
    if (!spec.secret) continue;
    const parts = path.split('.');
    let node = copy;
    for (const p of parts.slice(0, -1)) {
      node = node[p] as Record<string, unknown>;
      if (!node || typeof node !== 'object') break;
    }
    if (!node || typeof node !== 'object') continue;
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
