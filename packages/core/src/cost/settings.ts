/**
 * An owner's settings (GET/PUT /v1/settings, a Gleaner extension): the default grounding policy
 * and the day and month budgets in credits and model tokens. Absent values mean "none".
 */
import type { Owner } from '../auth/owners.ts';
import type { Queryable } from '../store/db.ts';
import type { GroundingPolicy } from '../trust/provenance.ts';

export interface OwnerSettings {
  /** The grounding policy when a request does not say; null: keep. */
  grounding_policy: GroundingPolicy | null;
  daily_credits: number | null;
  monthly_credits: number | null;
  daily_tokens: number | null;
  monthly_tokens: number | null;
}

export const SETTINGS_KEYS = ['grounding_policy', 'daily_credits', 'monthly_credits', 'daily_tokens', 'monthly_tokens'] as const;

const NONE: OwnerSettings = { grounding_policy: null, daily_credits: null, monthly_credits: null, daily_tokens: null, monthly_tokens: null };

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

export async function getOwnerSettings(db: Queryable, ownerId: string): Promise<OwnerSettings> {
  const { rows } = await db.query(
    'SELECT grounding_policy, daily_credits, monthly_credits, daily_tokens, monthly_tokens FROM owner_settings WHERE owner_id = $1',
    [ownerId],
  );
  const r = rows[0];
  if (!r) return { ...NONE };
  return {
    grounding_policy: r.grounding_policy,
    daily_credits: num(r.daily_credits),
    monthly_credits: num(r.monthly_credits),
    daily_tokens: num(r.daily_tokens),
    monthly_tokens: num(r.monthly_tokens),
  };
}

let changes = 0;

/**
 * How many times this process has changed an owner's settings: caches of settings (the run items'
 * budget check) start over when it moves, so a budget set through this process applies at once;
 * other processes see it when their cache's time runs out.
 */
export function settingsChanges(): number {
  return changes;
}

/** Sets the keys given (null clears one); keys not given keep their value. Returns the settings now. */
export async function putOwnerSettings(db: Queryable, owner: Owner, patch: Partial<OwnerSettings>): Promise<OwnerSettings> {
  const next = { ...(await getOwnerSettings(db, owner.id)) };
  for (const k of SETTINGS_KEYS) if (k in patch) (next as Record<string, unknown>)[k] = patch[k] ?? null;
  await db.query(
    `INSERT INTO owner_settings (owner_id, grounding_policy, daily_credits, monthly_credits, daily_tokens, monthly_tokens, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, now())
     ON CONFLICT (owner_id) DO UPDATE SET grounding_policy = $2, daily_credits = $3, monthly_credits = $4, daily_tokens = $5,
       monthly_tokens = $6, updated_at = now()`,
    [owner.id, next.grounding_policy, next.daily_credits, next.monthly_credits, next.daily_tokens, next.monthly_tokens],
  );
  changes++;
  return next;
}

const NULLABLE_AMOUNT = { type: ['number', 'null'], minimum: 0 } as const;

/** PUT /v1/settings body; also the answer of GET. */
export const SETTINGS_SCHEMA = {
  type: 'object',
  properties: {
    grounding_policy: { enum: ['keep', 'flag', 'drop', null], description: 'Grounding policy when a request does not give one (null: keep)' },
    daily_credits: { ...NULLABLE_AMOUNT, description: 'Credits per UTC day (null: no budget)' },
    monthly_credits: { ...NULLABLE_AMOUNT, description: 'Credits per UTC calendar month' },
    daily_tokens: { type: ['integer', 'null'], minimum: 0, description: 'Model tokens (input + output) per UTC day' },
    monthly_tokens: { type: ['integer', 'null'], minimum: 0, description: 'Model tokens per UTC calendar month' },
  },
} as const;
