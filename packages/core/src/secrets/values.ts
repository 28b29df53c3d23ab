/**
 * Secret parameters (a password, a one-time code): what the agent and a replay type into a page
 * through a `{{name}}` placeholder. The model only ever sees the placeholder; the value is revealed
 * at the moment it is typed (a `totp` parameter's code is computed then), and every text bound for
 * the model or a log passes through `redact`, which puts the placeholder back wherever a value (or
 * a code typed so far) shows up — a one-time-code field echoing what was typed, a password field's
 * value in an outline. A SecretValue serializes (JSON, util.inspect, String) as its placeholder.
 */
import { inspect } from 'node:util';
import type { ValidationIssue } from '../errors.ts';
import { base32Decode, totp } from './totp.ts';

export const SECRET_TYPES = ['secret', 'totp'] as const;
export type SecretType = (typeof SECRET_TYPES)[number];

export const isSecretType = (t: unknown): t is SecretType => t === 'secret' || t === 'totp';

/** A secret as stored (sealed, see vault.ts) and as given in a request. */
export interface SecretInput {
  name: string;
  type: SecretType;
  value: string;
  description?: string;
}

const NAME = /^[A-Za-z_]\w{0,62}$/;

/** Values shorter than this are not searched for in text (a 2-character value would blank out half a page). */
const MIN_REDACT = 3;

export class SecretValue {
  readonly name: string;
  readonly type: SecretType;
  readonly description: string | undefined;
  readonly #value: string;
  /** The TOTP codes typed so far (redacted like the seed). */
  readonly #typed = new Set<string>();

  constructor(s: SecretInput) {
    this.name = s.name;
    this.type = s.type;
    this.description = s.description;
    this.#value = s.value;
  }

  get placeholder(): string {
    return `{{${this.name}}}`;
  }

  /** The text to type now: the value, or the TOTP code of this moment. */
  reveal(): string {
    if (this.type === 'secret') return this.#value;
    const code = totp(this.#value);
    this.#typed.add(code);
    return code;
  }

  /** The texts that must never reach the model or a log (the value, the codes typed). */
  texts(): string[] {
    return [this.#value, ...this.#typed];
  }

  /** The stored form (only for sealing). */
  stored(): SecretInput {
    return { name: this.name, type: this.type, value: this.#value, ...(this.description ? { description: this.description } : {}) };
  }

  toJSON(): string {
    return this.placeholder;
  }

  toString(): string {
    return this.placeholder;
  }

  [inspect.custom](): string {
    return `SecretValue(${this.placeholder})`;
  }
}

/** The secrets by name. */
export type Secrets = Record<string, SecretValue>;

export function secretsFrom(list: readonly SecretInput[] | null | undefined): Secrets {
  const out: Secrets = Object.create(null);
  for (const s of list ?? []) out[s.name] = new SecretValue(s);
  return out;
}

/** Every secret value (and TOTP code typed so far) in `text` replaced by its placeholder. */
export function redact(text: string, secrets: Secrets | null | undefined): string {
  if (!secrets) return text;
  const pairs = Object.values(secrets)
    .flatMap((s) => s.texts().map((t) => [t, s.placeholder] as const))
    .filter(([t]) => t.length >= MIN_REDACT)
    .sort((a, b) => b[0].length - a[0].length);
  let out = text;
  for (const [t, ph] of pairs) if (out.includes(t)) out = out.split(t).join(ph);
  return out;
}

/** True when some secret is given. */
export const hasSecrets = (s: Secrets | null | undefined): s is Secrets => Boolean(s && Object.keys(s).length);

/** What the agent is told about the secrets it may type (names and descriptions, never values). */
export function describeSecrets(secrets: Secrets | null | undefined): string {
  if (!hasSecrets(secrets)) return '';
  const lines = Object.values(secrets).map(
    (s) => `- ${s.placeholder}${s.type === 'totp' ? ' (the current one-time code)' : ''}${s.description ? `: ${s.description}` : ''}`,
  );
  return [
    'Secret inputs (a password, a one-time code): type the placeholder itself as the text, e.g. {"ref": "e3", "text": "{{password}}"}; the real value is filled in as it is typed, and you never see it:',
    ...lines,
  ].join('\n');
}

/**
 * The `secrets` request field: `{name: "value"}` (a secret) or `{name: {type: "secret"|"totp",
 * value, description?}}`. A TOTP value is a base32 seed. Problems go to `issues` under `loc`.
 */
export function normalizeSecretsInput(raw: unknown, loc: Array<string | number>, issues: ValidationIssue[]): SecretInput[] {
  if (raw === undefined || raw === null) return [];
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    issues.push({ loc, msg: 'secrets must be an object: {"name": "value"} or {"name": {"type": "secret" | "totp", "value": "..."}}', type: 'object_type' });
    return [];
  }
  const out: SecretInput[] = [];
  for (const [name, v] of Object.entries(raw as Record<string, unknown>)) {
    const at = [...loc, name];
    if (!NAME.test(name)) {
      issues.push({ loc: at, msg: 'a secret name is a letter or _ followed by letters, digits or _ (at most 63)', type: 'value_error' });
      continue;
    }
    const spec = typeof v === 'string' ? { type: 'secret', value: v } : v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
    if (!spec || typeof spec.value !== 'string' || spec.value === '') {
      issues.push({ loc: at, msg: 'a secret is a non-empty string, or {"type": "secret" | "totp", "value": "..."}', type: 'value_error' });
      continue;
    }
    const type = spec.type ?? 'secret';
    if (!isSecretType(type)) {
      issues.push({ loc: [...at, 'type'], msg: 'Input should be "secret" or "totp"', type: 'enum' });
      continue;
    }
    if (type === 'totp') {
      try {
        if (base32Decode(spec.value).length < 10) throw new Error('short');
      } catch {
        issues.push({
          loc: [...at, 'value'],
          msg: 'a totp secret is the base32 seed the site showed (at least 16 characters, A-Z and 2-7)',
          type: 'value_error',
        });
        continue;
      }
    }
    const description = typeof spec.description === 'string' ? spec.description.slice(0, 300) : undefined;
    out.push({ name, type, value: spec.value, ...(description ? { description } : {}) });
  }
  return out;
}

/** Parameter values split into the plain ones and the secrets among them. */
export function splitSecrets(values: Record<string, unknown> | null | undefined): { plain: Record<string, unknown>; secrets: Secrets } {
  const plain: Record<string, unknown> = {};
  const secrets: Secrets = Object.create(null);
  for (const [k, v] of Object.entries(values ?? {})) {
    if (v instanceof SecretValue) secrets[k] = v;
    else plain[k] = v;
  }
  return { plain, secrets };
}
