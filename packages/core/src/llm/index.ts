// The model client's public surface. The helpers (limiter, backoff, JSON checks) stay internal so that
// their generic names cannot clash with other modules' exports in core's index.
export { createModelClient } from './call-model.ts';
export type { ModelClient, ModelClientOptions, LlmJsonRequest, LlmJsonResult } from './call-model.ts';
export { parseModelJson } from './json-output.ts';
export type { JsonParseOutcome } from './json-output.ts';
