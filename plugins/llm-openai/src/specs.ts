/** What is known about OpenAI's models, and the spec of the configured model. */
import type { ModelSpec } from '@gleaner/core/plugin';
import { PROVIDER_NAME } from './errors.ts';

interface KnownModel {
  contextWindow: number;
  maxOutputTokens: number;
  vision: boolean;
  reasoning: boolean;
  /** USD per million tokens on api.openai.com (input, output). */
  price?: [number, number];
}

// Longest matching prefix wins, so 'gpt-4o-mini-2024-07-18' finds 'gpt-4o-mini' before 'gpt-4o'.
const KNOWN: Record<string, KnownModel> = {
  'gpt-5': { contextWindow: 400_000, maxOutputTokens: 128_000, vision: true, reasoning: true, price: [1.25, 10] },
  'gpt-5-mini': { contextWindow: 400_000, maxOutputTokens: 128_000, vision: true, reasoning: true, price: [0.25, 2] },
  'gpt-5-nano': { contextWindow: 400_000, maxOutputTokens: 128_000, vision: true, reasoning: true, price: [0.05, 0.4] },
  'gpt-4.1': { contextWindow: 1_047_576, maxOutputTokens: 32_768, vision: true, reasoning: false, price: [2, 8] },
  'gpt-4.1-mini': { contextWindow: 1_047_576, maxOutputTokens: 32_768, vision: true, reasoning: false, price: [0.4, 1.6] },
  'gpt-4.1-nano': { contextWindow: 1_047_576, maxOutputTokens: 32_768, vision: true, reasoning: false, price: [0.1, 0.4] },
  'gpt-4o': { contextWindow: 128_000, maxOutputTokens: 16_384, vision: true, reasoning: false, price: [2.5, 10] },
  'gpt-4o-mini': { contextWindow: 128_000, maxOutputTokens: 16_384, vision: true, reasoning: false, price: [0.15, 0.6] },
  'gpt-4-turbo': { contextWindow: 128_000, maxOutputTokens: 4_096, vision: true, reasoning: false },
  'gpt-4': { contextWindow: 8_192, maxOutputTokens: 8_192, vision: false, reasoning: false },
  'gpt-3.5-turbo': { contextWindow: 16_385, maxOutputTokens: 4_096, vision: false, reasoning: false },
  o1: { contextWindow: 200_000, maxOutputTokens: 100_000, vision: true, reasoning: true, price: [15, 60] },
  'o1-mini': { contextWindow: 128_000, maxOutputTokens: 65_536, vision: false, reasoning: true },
  o3: { contextWindow: 200_000, maxOutputTokens: 100_000, vision: true, reasoning: true, price: [2, 8] },
  'o3-mini': { contextWindow: 200_000, maxOutputTokens: 100_000, vision: false, reasoning: true, price: [1.1, 4.4] },
  'o4-mini': { contextWindow: 200_000, maxOutputTokens: 100_000, vision: true, reasoning: true, price: [1.1, 4.4] },
};

export const FALLBACK_CONTEXT_WINDOW = 8192;

export function knownModel(model: string): KnownModel | undefined {
  const bare = model.includes('/') ? model.slice(model.lastIndexOf('/') + 1) : model; // 'openai/gpt-4o' (OpenRouter)
  let best: string | undefined;
  for (const prefix of Object.keys(KNOWN)) {
    if ((bare === prefix || bare.startsWith(`${prefix}-`)) && (!best || prefix.length > best.length)) best = prefix;
  }
  return best ? KNOWN[best] : undefined;
}

/** Reasoning models take max_completion_tokens and refuse a temperature other than the default. */
export function isReasoningModel(model: string): boolean {
  return knownModel(model)?.reasoning ?? /^(?:.*\/)?(o\d|gpt-5)/.test(model);
}

export interface SpecInput {
  model: string;
  /** llm.contextWindow; > 0 wins over everything else. */
  contextWindow?: number;
  /** What the server's /v1/models said (vLLM's max_model_len, OpenRouter's context_length). */
  serverContextWindow?: number;
  /** Prices are shown only for api.openai.com. */
  official: boolean;
}

export function buildSpec(input: SpecInput): ModelSpec {
  const known = knownModel(input.model);
  const contextWindow =
    input.contextWindow && input.contextWindow > 0 ? input.contextWindow : (input.serverContextWindow ?? known?.contextWindow ?? FALLBACK_CONTEXT_WINDOW);
  const price = input.official ? known?.price : undefined;
  return {
    id: input.model,
    name: input.model,
    provider: PROVIDER_NAME,
    context_window: contextWindow,
    max_output_tokens: known?.maxOutputTokens ?? null,
    modalities: { input: known?.vision ? ['text', 'image'] : ['text'], output: ['text'] },
    capabilities: { structured_output: true, tool_calls: true, vision: known?.vision ?? false, reasoning: known?.reasoning ?? false },
    pricing: { currency: 'USD', input_per_million_tokens: price?.[0] ?? null, output_per_million_tokens: price?.[1] ?? null },
  };
}

/** The context length a /v1/models item declares, under the names servers use for it. */
export function contextLengthOf(item: unknown): number | undefined {
  if (!item || typeof item !== 'object') return undefined;
  const o = item as Record<string, unknown>;
  for (const key of ['max_model_len', 'context_length', 'context_window', 'max_context_length']) {
    if (typeof o[key] === 'number' && (o[key] as number) > 0) return o[key] as number;
  }
  return undefined;
}
