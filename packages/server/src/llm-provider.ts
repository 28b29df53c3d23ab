/**
 * Chooses and builds the model provider from the resolved configuration. The engine wraps it once
 * in core's model client (timeout, retries, concurrency limit, JSON validation).
 */
import {
  CONFIG_FIELDS,
  MODEL_SETTINGS_HINT,
  chooseProvider,
  providerChosen,
  type GleanerConfig,
  type KNOWN_PLUGINS,
  type LlmProvider,
  type Logger,
  type ModelSpec,
  type PluginFromConfig,
} from '@gleaner/core';
import { fromConfig as openAiFromConfig, OPENAI_DEFAULT_MODEL } from '@gleaner/llm-openai';
import { fromConfig as ollamaFromConfig, OLLAMA_DEFAULT_MODEL } from '@gleaner/llm-ollama';

export { chooseProvider };
export const DEFAULT_MODELS = { openai: OPENAI_DEFAULT_MODEL, ollama: OLLAMA_DEFAULT_MODEL } as const;

/** The server links every model plugin: core's table of known providers, built by each package's fromConfig. */
const PROVIDERS: Record<keyof typeof KNOWN_PLUGINS.llm, PluginFromConfig<LlmProvider>> = { openai: openAiFromConfig, ollama: ollamaFromConfig };

export interface LlmSetup {
  /** null when no provider is configured (model-free operations still work). */
  provider: LlmProvider | null;
  /** For GET /v1/llm-specs: never throws. */
  listLlmSpecs(): Promise<ModelSpec[]>;
}

type LlmConfig = Pick<GleanerConfig, 'llm' | 'openai' | 'ollama'>;

function buildProvider(config: LlmConfig, logger: Logger): LlmProvider | null {
  const kind = chooseProvider(config);
  const built = PROVIDERS[kind]({ config: config as GleanerConfig, logger });
  if ('missing' in built) {
    logger.warn(`llm.provider is ${kind} but it is not configured (${built.missing}); model operations answer 503 MODEL_NOT_CONFIGURED`);
    return null;
  }
  return built;
}

/**
 * The specs of a provider for GET /v1/llm-specs: an empty list (and a warning in the log) when there
 * is no provider or it cannot be reached within `timeoutMs`, never an error.
 */
export async function listLlmSpecs(provider: LlmProvider | null, logger: Logger, timeoutMs = 10_000): Promise<ModelSpec[]> {
  if (!provider) return [];
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    return await Promise.race([Promise.resolve().then(() => provider.specs()), timeout]);
  } catch (err) {
    logger.warn({ provider: provider.name, model: provider.model, err: err instanceof Error ? err.message : String(err) }, 'model provider specs unavailable');
    return [];
  } finally {
    clearTimeout(timer);
  }
}

/** Builds the provider the configuration names (decideModel says at start-up whether it stands). */
export function createLlmFromConfig(config: LlmConfig, logger: Logger): LlmSetup {
  const provider = buildProvider(config, logger);
  return { provider, listLlmSpecs: () => listLlmSpecs(provider, logger) };
}

/**
 * True when the user named no model at all: no llm.provider, no OpenAI key or base URL, OLLAMA_HOST
 * at its default. The Ollama provider built then is only a guess that an Ollama runs locally.
 */
export function modelGuessed(config: LlmConfig): boolean {
  return !providerChosen(config) && config.ollama.host === CONFIG_FIELDS['ollama.host'].default;
}

/** Whether an Ollama server answers at `host` (GET /api/tags) within `timeoutMs`. */
export async function ollamaAnswers(host: string, timeoutMs = 1_500): Promise<boolean> {
  try {
    const res = await fetch(new URL('/api/tags', host), { signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}

/**
 * Decides once, at start-up, whether this process has a model: the one the user configured, or the
 * default Ollama when it answers now. Without one, every model-backed request answers 503
 * MODEL_NOT_CONFIGURED at once instead of failing later against an address nobody chose. Logs the
 * outcome in one line.
 */
export async function decideModel(config: LlmConfig, provider: LlmProvider | null, logger: Logger, probeTimeoutMs?: number): Promise<LlmProvider | null> {
  if (provider && modelGuessed(config) && !(await ollamaAnswers(config.ollama.host, probeTimeoutMs))) {
    logger.warn(
      { model: null },
      `no model configured (nothing answers at ${config.ollama.host}): extraction, parsing, the agent and scraper builds answer 503 MODEL_NOT_CONFIGURED; markdown and classic scraper runs work. To enable them, ${MODEL_SETTINGS_HINT}`,
    );
    return null;
  }
  if (provider) logger.info({ provider: provider.name, model: provider.model }, 'model provider configured');
  return provider;
}
