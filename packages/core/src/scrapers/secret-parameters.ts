/**
 * An agentic scraper's secret parameters (`secrets` on POST /v1/agent/generate): sealed in the
 * scraper's build request, declared in its parameters_schema as type `secret` or `totp` with
 * `stored: true` (a run may leave them out, or give its own value for that run), and handed to the
 * agent and the replay as SecretValue parameters (secrets/values.ts) — never as plain values.
 */
import type { OperationContext } from '../context.ts';
import type { IdentifiedParameters } from '../agent/script-parameters.ts';
import { isSecretType, secretsFrom, type SecretInput, type Secrets } from '../secrets/values.ts';
import { seal, unseal } from '../secrets/vault.ts';
import type { ParameterSpec, ScraperBuildRequest } from './types.ts';

/** The secrets stored with a scraper's build request (none: an empty map). */
export function storedSecrets(ctx: Pick<OperationContext, 'config'>, request: ScraperBuildRequest | null): Secrets {
  return request?.secrets ? secretsFrom(unseal<SecretInput[]>(ctx.config, request.secrets, 'secret parameters')) : secretsFrom([]);
}

/** The identified parameters with the secrets declared (a name the model also found becomes the secret). */
export function withSecretParameters(identified: IdentifiedParameters, secrets: Secrets): IdentifiedParameters {
  const list = Object.values(secrets);
  if (!list.length) return identified;
  const names = new Set(list.map((s) => s.name));
  const schema: ParameterSpec[] = identified.schema.filter((p) => !names.has(p.name));
  const values: Record<string, unknown> = Object.fromEntries(Object.entries(identified.values).filter(([k]) => !names.has(k)));
  for (const s of list) {
    schema.push({ name: s.name, type: s.type, ...(s.description ? { description: s.description } : {}), stored: true });
    values[s.name] = s;
  }
  return { ...identified, schema, values };
}

/** The secret-typed parameters of a schema. */
export const secretSpecs = (schema: ParameterSpec[] | null | undefined) => (schema ?? []).filter((p) => isSecretType(p.type));

/**
 * A run's own values of secret parameters, taken out of `parameters` and sealed (runs store their
 * options): null when the run gives none.
 */
export function sealRunSecrets(ctx: Pick<OperationContext, 'config'>, schema: ParameterSpec[] | null, parameters: Record<string, unknown>): string | null {
  const given: SecretInput[] = [];
  for (const p of secretSpecs(schema)) {
    const v = parameters[p.name];
    delete parameters[p.name];
    if (typeof v === 'string' && v !== '' && isSecretType(p.type)) given.push({ name: p.name, type: p.type, value: v });
  }
  return given.length ? seal(ctx.config, given, 'secret parameters') : null;
}
