/** The spec of the configured Ollama model, from /api/show when the server has it. */
import type { ModelSpec } from '@gleaner/core/plugin';
import { PROVIDER_NAME } from './errors.ts';

export const FALLBACK_CONTEXT_WINDOW = 8192;

export interface ShowInfo {
  /** `model_info` of /api/show: '<architecture>.context_length' among others. */
  modelInfo?: Record<string, unknown>;
  capabilities?: string[];
}

/** The trained context length in model_info ('llama.context_length', 'qwen2.context_length', ...). */
export function contextLengthOf(modelInfo: Record<string, unknown> | undefined): number | undefined {
  if (!modelInfo) return undefined;
  const arch = modelInfo['general.architecture'];
  const exact = typeof arch === 'string' ? modelInfo[`${arch}.context_length`] : undefined;
  if (typeof exact === 'number' && exact > 0) return exact;
  for (const [key, value] of Object.entries(modelInfo)) {
    if (key.endsWith('.context_length') && typeof value === 'number' && value > 0) return value;
  }
  return undefined;
}

export function buildSpec(model: string, contextWindow: number | undefined, show: ShowInfo | undefined): ModelSpec {
  const caps = show?.capabilities ?? [];
  const vision = caps.includes('vision');
  return {
    id: model,
    name: model,
    provider: PROVIDER_NAME,
    context_window: contextWindow && contextWindow > 0 ? contextWindow : (contextLengthOf(show?.modelInfo) ?? FALLBACK_CONTEXT_WINDOW),
    max_output_tokens: null,
    modalities: { input: vision ? ['text', 'image'] : ['text'], output: ['text'] },
    capabilities: {
      structured_output: true,
      // Without /api/show we do not know; Ollama lists 'tools' for models whose template supports them.
      tool_calls: show ? caps.includes('tools') : false,
      vision,
      reasoning: caps.includes('thinking'),
    },
    // A local model costs no per-token fee.
    pricing: { currency: 'USD', input_per_million_tokens: 0, output_per_million_tokens: 0 },
  };
}
