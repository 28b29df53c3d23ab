// @gleaner/llm-ollama: a local or remote Ollama.
export { createOllamaProvider, OLLAMA_DEFAULT_HOST } from './provider.ts';
export type { OllamaProviderOptions } from './provider.ts';
export { PROVIDER_NAME as OLLAMA_PROVIDER_NAME } from './errors.ts';
export { keepAliveValue } from './request.ts';
export { fromConfig, OLLAMA_DEFAULT_MODEL } from './from-config.ts';
