// @gleaner/llm-openai: OpenAI and every OpenAI-compatible server (vLLM, llama.cpp, LM Studio, OpenRouter).
export { createOpenAiProvider, OPENAI_BASE_URL } from './provider.ts';
export type { OpenAiProviderOptions } from './provider.ts';
export { PROVIDER_NAME as OPENAI_PROVIDER_NAME } from './errors.ts';
export { qualifiesForStrict } from './request.ts';
export { knownModel as knownOpenAiModel } from './specs.ts';
export { fromConfig, OPENAI_DEFAULT_MODEL } from './from-config.ts';
