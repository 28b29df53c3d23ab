export { loadConfig, redactConfig, CONFIG_FIELDS, environmentConventions } from './load.ts';
export type { FieldSpec, LoadConfigInput } from './load.ts';
export type { GleanerConfig, ConfigOptions, DeepPartial } from './types.ts';
