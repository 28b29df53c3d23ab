/**
 * Budgets: per request (`max_credits`, `max_tokens`) and per owner per UTC day and month
 * (GET/PUT /v1/settings). Spending is counted in Postgres — the owner's usage events plus what
 * unfinished runs have charged so far — so every API process and worker sees one figure. Work that
 * would pass a budget is refused before it starts (402 BUDGET_EXCEEDED); work that reaches one
 * mid-way stops with what it has.
 */
import { GleanerError } from '../errors.ts';
import type { OperationContext } from '../context.ts';
import type { Queryable } from '../store/db.ts';
import { getOwnerSettings, type OwnerSettings } from './settings.ts';

export type BudgetScope = 'request' | 'daily' | 'monthly';

export interface BudgetDetails {
  scope: BudgetScope;
  unit: 'credits' | 'tokens';
  limit: number;
  /** Spent in the period before this work (0 for a request budget). */
  spent: number;
  /** What this work was estimated (or has so far) to cost. */
  estimate: number;
}

export interface Spend {
  credits: number;
  tokens: number;
}

export interface OwnerSpend {
  day: Spend;
  month: Spend;
}

/** What the owner has spent this UTC day and month: usage events, plus unfinished runs' charges and reservations so far. */
export async function ownerSpend(db: Queryable, ownerId: string): Promise<OwnerSpend> {
  const { rows } = await db.query(
    `WITH bounds AS (
       SELECT date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS day,
              date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' AS month
     ), events AS (
       SELECT coalesce(sum(credits) FILTER (WHERE u.created_at >= b.day), 0) AS day_credits,
              coalesce(sum(input_tokens + output_tokens) FILTER (WHERE u.created_at >= b.day), 0) AS day_tokens,
              coalesce(sum(credits), 0) AS month_credits,
              coalesce(sum(input_tokens + output_tokens), 0) AS month_tokens
         FROM usage_events u, bounds b WHERE u.owner_id = $1 AND u.created_at >= b.month
     ), running AS (
       SELECT coalesce(sum(credits_charged - heal_credits + reserved_credits), 0) AS credits
         FROM runs WHERE owner_id = $1 AND status IN ('queued', 'running')
     )
     SELECT e.*, r.credits AS run_credits FROM events e, running r`,
    [ownerId],
  );
  const r = rows[0];
  const running = Number(r.run_credits);
  return {
    day: { credits: Number(r.day_credits) + running, tokens: Number(r.day_tokens) },
    month: { credits: Number(r.month_credits) + running, tokens: Number(r.month_tokens) },
  };
}

export function budgetExceeded(d: BudgetDetails, what: string): GleanerError {
  const where =
    d.scope === 'request'
      ? `the request's max_${d.unit} (${d.limit}${d.spent ? `, ${d.spent} spent` : ''})`
      : `your ${d.scope} budget of ${d.limit} ${d.unit} (${d.spent} spent${d.scope === 'daily' ? ' today, UTC' : ' this month, UTC'}; GET /v1/settings)`;
  return new GleanerError('BUDGET_EXCEEDED', `${what} would cost about ${d.estimate} ${d.unit}, more than ${where}`, { details: d });
}

/** The first budget `need` would pass, or null. */
export function firstExceeded(
  settings: OwnerSettings,
  spend: OwnerSpend | null,
  request: { maxCredits?: number | null; maxTokens?: number | null },
  need: Spend,
): BudgetDetails | null {
  const r2 = (n: number) => Math.round(n * 10_000) / 10_000;
  const checks: Array<[BudgetScope, 'credits' | 'tokens', number | null | undefined, number]> = [
    ['request', 'credits', request.maxCredits, 0],
    ['request', 'tokens', request.maxTokens, 0],
    ['daily', 'credits', settings.daily_credits, spend?.day.credits ?? 0],
    ['daily', 'tokens', settings.daily_tokens, spend?.day.tokens ?? 0],
    ['monthly', 'credits', settings.monthly_credits, spend?.month.credits ?? 0],
    ['monthly', 'tokens', settings.monthly_tokens, spend?.month.tokens ?? 0],
  ];
  for (const [scope, unit, limit, spent] of checks) {
    if (limit === null || limit === undefined) continue;
    const estimate = unit === 'credits' ? need.credits : need.tokens;
    // A budget already used up refuses even work estimated at nothing.
    if (spent + estimate > limit || (scope !== 'request' && spent > 0 && spent >= limit))
      return { scope, unit, limit, spent: r2(spent), estimate: r2(estimate) };
  }
  return null;
}

/** Whether the owner has day or month budgets (so the spend query is worth making). */
export function hasOwnerBudgets(s: OwnerSettings): boolean {
  return s.daily_credits !== null || s.monthly_credits !== null || s.daily_tokens !== null || s.monthly_tokens !== null;
}

/**
 * Refuses work whose estimate `need` would pass the request's or the owner's budgets
 * (BUDGET_EXCEEDED, HTTP 402). `what` names the work in the message.
 */
export async function checkBudgets(
  ctx: OperationContext,
  ownerId: string,
  request: { maxCredits?: number | null; maxTokens?: number | null },
  need: Spend,
  what: string,
): Promise<void> {
  const settings = await getOwnerSettings(ctx.db, ownerId);
  const spend = hasOwnerBudgets(settings) ? await ownerSpend(ctx.db, ownerId) : null;
  const over = firstExceeded(settings, spend, request, need);
  if (!over) return;
  ctx.metrics?.budgetRefusals.inc({ scope: over.scope });
  throw budgetExceeded(over, what);
}

/**
 * Before a run item reads its URL: reserves `credits` (its estimate) on the run when the run's
 * max_credits and the owner's budgets allow it, else throws BUDGET_EXCEEDED. Reservations of one
 * owner are taken one at a time (a transaction-scoped advisory lock), so workers in any number of
 * processes cannot together pass a budget; recording the item releases its reservation.
 */
export async function reserveRunItem(
  ctx: OperationContext,
  run: { runId: string; position: number; ownerId: string; maxCredits: number | null | undefined },
  settings: OwnerSettings,
  credits: number,
): Promise<boolean> {
  if ((run.maxCredits === null || run.maxCredits === undefined) && !hasOwnerBudgets(settings)) return false;
  await ctx.db.tx(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('gleaner-budget:' || $1))`, [run.ownerId]);
    const { rows } = await tx.query(
      `SELECT r.credits_charged - r.heal_credits + r.reserved_credits AS spent, i.reserved_credits AS held
         FROM runs r JOIN run_items i ON i.run_id = r.id AND i.position = $2 WHERE r.id = $1`,
      [run.runId, run.position],
    );
    // A retried item holds its first attempt's reservation already: only the rest is new.
    const held = Number(rows[0]?.held ?? 0);
    const more = Math.max(0, credits - held);
    const runSpent = Number(rows[0]?.spent ?? 0) - held;
    const spend = hasOwnerBudgets(settings) ? await ownerSpend(tx, run.ownerId) : null;
    if (spend) for (const period of [spend.day, spend.month]) period.credits -= held;
    const over =
      run.maxCredits !== null && run.maxCredits !== undefined && runSpent + credits > run.maxCredits
        ? { scope: 'request' as const, unit: 'credits' as const, limit: run.maxCredits, spent: runSpent, estimate: credits }
        : firstExceeded(settings, spend, {}, { credits, tokens: 0 });
    if (over) {
      ctx.metrics?.budgetRefusals.inc({ scope: over.scope });
      throw budgetExceeded(over, 'reading this URL');
    }
    await tx.query('UPDATE runs SET reserved_credits = reserved_credits + $2 WHERE id = $1', [run.runId, more]);
    await tx.query('UPDATE run_items SET reserved_credits = $3 WHERE run_id = $1 AND position = $2', [run.runId, run.position, held + more]);
  });
  return true;
}

/**
 * The model tokens an agent task may still use: the request's max_tokens, the owner's day and month
 * token budgets left, and — when tokens are priced (credits.per1kModelTokens) — what the request's
 * max_credits and the owner's credit budgets left pay for after one extracted page. Null: no bound
 * beyond agent.maxTokens.
 */
export async function tokenAllowance(
  ctx: OperationContext,
  ownerId: string,
  request: { maxCredits?: number | null; maxTokens?: number | null },
): Promise<number | null> {
  const settings = await getOwnerSettings(ctx.db, ownerId);
  const spend = hasOwnerBudgets(settings) ? await ownerSpend(ctx.db, ownerId) : null;
  const bounds: number[] = [];
  if (request.maxTokens != null) bounds.push(request.maxTokens);
  if (spend && settings.daily_tokens !== null) bounds.push(settings.daily_tokens - spend.day.tokens);
  if (spend && settings.monthly_tokens !== null) bounds.push(settings.monthly_tokens - spend.month.tokens);
  const per1k = ctx.config.credits.per1kModelTokens;
  if (per1k > 0) {
    const credits: number[] = [];
    if (request.maxCredits != null) credits.push(request.maxCredits);
    if (spend && settings.daily_credits !== null) credits.push(settings.daily_credits - spend.day.credits);
    if (spend && settings.monthly_credits !== null) credits.push(settings.monthly_credits - spend.month.credits);
    for (const c of credits) bounds.push(((c - ctx.config.credits.extractPage) / per1k) * 1000);
  }
  return bounds.length ? Math.max(0, Math.floor(Math.min(...bounds))) : null;
}
