/**
 * Typing a secret: the `{{name}}` placeholders of secret parameters in a text become their values
 * (a TOTP code computed at this moment) just before the text is typed; other text, and
 * placeholders of names that are no secret, stay as they are.
 */
import type { Secrets } from '../secrets/values.ts';

const PLACEHOLDER = /\{\{\s*([A-Za-z_][\w-]*)\s*\}\}/g;

export function fillSecrets(text: string, secrets: Secrets | null | undefined): string {
  if (!secrets) return text;
  return text.replace(PLACEHOLDER, (whole, name: string) => (Object.hasOwn(secrets, name) ? secrets[name].reveal() : whole));
}
