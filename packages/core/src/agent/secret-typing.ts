/**
 * Secrets in an agent run: the model is told the `{{name}}` placeholders of the secret parameters
 * (never the values), every text bound for the model or a record has the values put back to their
 * placeholders, and a text the model types has its placeholders made values (a TOTP code computed
 * at this moment) just before it is typed; other text, and placeholders of names that are no
 * secret, stay as they are.
 */
import { describeSecrets, redact, type Secrets } from '../secrets/values.ts';

const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w-]*)\s*\}\}/g;

export function fillSecrets(text: string, secrets: Secrets | null | undefined): string {
  if (!secrets) return text;
  return text.replace(PLACEHOLDER, (whole, name: string) => (Object.hasOwn(secrets, name) ? secrets[name].reveal() : whole));
}

/** An agent run's secrets, as the loop uses them. */
export interface AgentSecrets {
  /** The goal's lines naming the placeholders the model may type ('' without secrets). */
  describe(): string;
  /** Text bound for the model or a record: secret values (and codes typed) back to their placeholders. */
  hide(text: string): string;
  /** Text about to be typed: placeholders become the values. */
  fill(text: string): string;
}

export function agentSecrets(secrets: Secrets | null | undefined): AgentSecrets {
  return {
    describe: () => describeSecrets(secrets),
    hide: (text) => redact(text, secrets),
    fill: (text) => fillSecrets(text, secrets),
  };
}
