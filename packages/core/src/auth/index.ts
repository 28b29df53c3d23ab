export * from './owners.ts';
export * from './api-keys.ts';
export * from './access-tokens.ts';
export { newSigningSecret } from './secrets.ts';
