/**
 * The known plugin packages and which of them the configuration asks for. createEngine builds the
 * configured drivers and model provider from this table when its caller hands it none: each plugin
 * package exports `fromConfig`, and core imports the package by name when the configuration names
 * it (core cannot depend on its plugins, which depend on it). A package that is not installed is
 * skipped with a warning naming it, unless the configuration asked for it explicitly.
 */
import { GleanerError } from '../errors.ts';
import type { GleanerConfig } from '../config/types.ts';
import type { Logger } from '../log.ts';
import type { Driver } from './driver.ts';
import type { LlmProvider } from './llm.ts';

/** What `fromConfig` gets: the resolved configuration and the engine's logger. */
export interface PluginContext {
  config: Readonly<GleanerConfig>;
  logger: Logger;
}

/**
 * A plugin package's `fromConfig` export: the plugin built from configuration, or `{missing}` naming
 * the settings it lacks (a model provider without a key or host), which leaves it out.
 */
export type PluginFromConfig<T> = (ctx: PluginContext) => T | { missing: string };

/** Plugin kind → configuration value → the package that implements it. */
export const KNOWN_PLUGINS = {
  driver: { http: '@gleaner/driver-http', playwright: '@gleaner/driver-playwright', selenium: '@gleaner/driver-selenium' },
  llm: { openai: '@gleaner/llm-openai', ollama: '@gleaner/llm-ollama' },
} as const satisfies Record<string, Record<string, string>>;

/**
 * Which model provider `llm.provider: ""` means: the first whose settings (declared by its plugin
 * package, in its settings.json) are set, else the last (ollama, which has a default address).
 */
export const PROVIDER_PICKED_BY: Readonly<Record<keyof typeof KNOWN_PLUGINS.llm, readonly string[]>> = {
  openai: ['openai.apiKey', 'openai.baseUrl'],
  ollama: [],
};

/** A setting's value by its dotted path ("openai.apiKey"); undefined when no installed package declares it. */
export function settingValue(config: object, path: string): unknown {
  let node: unknown = config;
  for (const part of path.split('.'))
    node = node && typeof node === 'object' && Object.hasOwn(node, part) ? (node as Record<string, unknown>)[part] : undefined;
  return node;
}

type LlmConfig = Pick<GleanerConfig, 'llm'>;

/** Whether the user picked a model provider: llm.provider, or a setting that picks one (an OpenAI key or base URL). */
export function providerChosen(config: LlmConfig): boolean {
  return Boolean(config.llm.provider) || Object.values(PROVIDER_PICKED_BY).some((paths) => paths.some((p) => settingValue(config, p)));
}

/** 'openai' or 'ollama' as configured; empty means openai when a key or base URL is set, else ollama. */
export function chooseProvider(config: LlmConfig): keyof typeof KNOWN_PLUGINS.llm {
  if (config.llm.provider) return config.llm.provider;
  const names = Object.keys(PROVIDER_PICKED_BY) as Array<keyof typeof KNOWN_PLUGINS.llm>;
  return names.find((name) => PROVIDER_PICKED_BY[name].some((p) => settingValue(config, p))) ?? names[names.length - 1];
}

/** A plugin the configuration names, and whether the user named it (a missing package is then an error). */
interface Wanted {
  kind: keyof typeof KNOWN_PLUGINS;
  name: string;
  explicit: boolean;
}

function wanted(config: Readonly<GleanerConfig>, which: { drivers: boolean; llm: boolean }): Wanted[] {
  const out: Wanted[] = [];
  if (which.drivers) {
    out.push({ kind: 'driver', name: 'http', explicit: false });
    // The browser driver escalation moves to; none when escalation is off.
    if (config.browser.escalation !== 'never') out.push({ kind: 'driver', name: config.browser.driver, explicit: config.browser.escalation === 'always' });
  }
  if (which.llm) {
    out.push({ kind: 'llm', name: chooseProvider(config), explicit: providerChosen(config) });
  }
  return out;
}

/** What loadConfiguredPlugins built; the engine owns these and closes them at stop(). */
export interface ConfiguredPlugins {
  drivers: Driver[];
  llm: LlmProvider | null;
  close(): Promise<void>;
}

type Importer = (specifier: string) => Promise<{ fromConfig?: PluginFromConfig<Driver | LlmProvider> }>;

const isMissingPackage = (err: unknown, specifier: string) =>
  (err as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' && String((err as Error).message).includes(specifier);

/** Builds the plugins the configuration names, from KNOWN_PLUGINS (`which` picks drivers and/or the model provider). */
export async function loadConfiguredPlugins(
  ctx: PluginContext,
  which: { drivers: boolean; llm: boolean },
  importer: Importer = (s) => import(s),
): Promise<ConfiguredPlugins> {
  const { config, logger } = ctx;
  const built: ConfiguredPlugins = {
    drivers: [],
    llm: null,
    async close() {
      await Promise.allSettled(this.drivers.map((d) => d.close()));
      await this.llm?.close?.();
    },
  };
  for (const want of wanted(config, which)) {
    const table: Record<string, string> = KNOWN_PLUGINS[want.kind];
    const specifier = Object.hasOwn(table, want.name) ? table[want.name] : undefined;
    if (!specifier) throw new GleanerError('CONFIG_INVALID', `no known ${want.kind} plugin "${want.name}" (known: ${Object.keys(table).join(', ')})`);
    let mod: Awaited<ReturnType<Importer>>;
    try {
      mod = await importer(specifier);
    } catch (err) {
      if (!isMissingPackage(err, specifier)) throw err;
      if (want.explicit) {
        throw new GleanerError(
          'CONFIG_INVALID',
          `the configuration asks for ${want.kind} "${want.name}", but ${specifier} is not installed: npm install ${specifier}`,
        );
      }
      logger.warn(
        { plugin: specifier },
        `${specifier} is not installed: ${want.kind === 'llm' ? 'no model provider' : `no ${want.name} driver`} (npm install ${specifier})`,
      );
      continue;
    }
    if (typeof mod.fromConfig !== 'function')
      throw new GleanerError('PLUGIN_INCOMPATIBLE', `${specifier} exports no fromConfig; install a version built for this @gleaner/core`);
    const plugin = mod.fromConfig(ctx);
    if ('missing' in plugin) {
      logger.warn({ plugin: specifier }, `${want.kind} "${want.name}" is not configured: ${plugin.missing}`);
      continue;
    }
    if (want.kind === 'llm') built.llm = plugin as LlmProvider;
    else built.drivers.push(plugin as Driver);
  }
  return built;
}
