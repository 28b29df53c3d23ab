export { loadConfig, redactConfig, CONFIG_FIELDS } from './load.ts';
export type { FieldSpec, LoadConfigInput } from './load.ts';
export type { GleanerConfig, ConfigOptions, DeepPartial } from './types.ts';
