/**
 * Cost after the work: GET /v1/usage (a Gleaner extension). The owner's usage events between `from`
 * and `to`, grouped by UTC day, scraper or kind (the operation), each group with its pages, model
 * calls, tokens, credits, unsupported values and money; the totals are the sum of the groups.
 */
import { validationFailed } from '../errors.ts';
import type { Owner } from '../auth/owners.ts';
import type { OperationContext } from '../context.ts';
import { modelPrice, moneyFor, type Money } from './estimate.ts';

export type UsageGroupBy = 'day' | 'scraper' | 'kind';

export interface UsageFigures {
  events: number;
  pages: number;
  model_calls: number;
  input_tokens: number;
  output_tokens: number;
  credits: number;
  unsupported_values: number;
  money: Money | null;
}

export interface UsageItem extends UsageFigures {
  /** The day (YYYY-MM-DD, UTC), the scraper id (null: work of no scraper), or the kind (extract, parse, scraper_run, ...). */
  key: string | null;
  /** group_by=scraper: the scraper's name (null once deleted, or for key null). */
  name?: string | null;
}

export interface UsageReport {
  from: string;
  to: string;
  group_by: UsageGroupBy;
  items: UsageItem[];
  totals: UsageFigures;
}

const KEY_SQL: Record<UsageGroupBy, string> = {
  day: `to_char(date_trunc('day', u.created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD')`,
  kind: 'u.operation',
  // A scraper's builds and heals name it; its runs name the run, whose row names the scraper.
  scraper: `CASE WHEN u.subject LIKE 'scraper:%' THEN substr(u.subject, 9) WHEN u.subject LIKE 'run:%' THEN r.scraper_id END`,
};

function parseTime(value: unknown, name: string, fallback: Date): Date {
  if (value === undefined || value === null || value === '') return fallback;
  const d = new Date(String(value));
  if (Number.isNaN(d.getTime()))
    throw validationFailed([{ loc: ['query', name], msg: 'Input should be a date (YYYY-MM-DD) or an ISO date-time', type: 'datetime_parsing' }]);
  return d;
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;

function sumMoney(items: Array<{ money: Money | null }>): Money | null {
  const priced = items.filter((i) => i.money);
  if (!priced.length) return null;
  const first = priced[0].money!;
  return { ...first, amount: Math.round(priced.reduce((n, i) => n + i.money!.amount, 0) * 1e6) / 1e6 };
}

export async function usageReport(ctx: OperationContext, owner: Owner, query: { from?: string; to?: string; group_by?: UsageGroupBy }): Promise<UsageReport> {
  const now = new Date();
  const to = parseTime(query.to, 'to', now);
  const from = parseTime(query.from, 'from', new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)));
  if (from >= to) throw validationFailed([{ loc: ['query', 'from'], msg: 'from must be before to', type: 'value_error' }]);
  const groupBy = query.group_by ?? 'day';
  const { rows } = await ctx.db.query(
    `SELECT ${KEY_SQL[groupBy]} AS key, count(*)::int AS events, sum(u.pages)::bigint AS pages, sum(u.model_calls)::bigint AS model_calls,
            sum(u.input_tokens)::bigint AS input_tokens, sum(u.output_tokens)::bigint AS output_tokens, sum(u.credits) AS credits,
            sum(u.unsupported_values)::bigint AS unsupported_values
       FROM usage_events u LEFT JOIN runs r ON u.subject LIKE 'run:%' AND r.id = substr(u.subject, 5) AND r.owner_id = u.owner_id
      WHERE u.owner_id = $1 AND u.created_at >= $2 AND u.created_at < $3
      GROUP BY 1 ORDER BY 1 NULLS LAST`,
    [owner.id, from, to],
  );
  const names = new Map<string, string>();
  if (groupBy === 'scraper') {
    const ids = rows.map((r) => r.key).filter(Boolean);
    const found = await ctx.db.query('SELECT id, name FROM scrapers WHERE owner_id = $1 AND id = ANY($2)', [owner.id, ids]);
    for (const s of found.rows) names.set(s.id, s.name);
  }
  const price = await modelPrice(ctx);
  const items: UsageItem[] = rows.map((r) => {
    const figures = {
      events: r.events,
      pages: Number(r.pages),
      model_calls: Number(r.model_calls),
      input_tokens: Number(r.input_tokens),
      output_tokens: Number(r.output_tokens),
      credits: round(Number(r.credits)),
      unsupported_values: Number(r.unsupported_values),
    };
    const item: UsageItem = { key: r.key, ...figures, money: moneyFor(price, { inputTokens: figures.input_tokens, outputTokens: figures.output_tokens }) };
    if (groupBy === 'scraper') item.name = r.key ? (names.get(r.key) ?? null) : null;
    return item;
  });
  const sum = (k: keyof Omit<UsageFigures, 'money'>) => items.reduce((n, i) => n + i[k], 0);
  const totals: UsageFigures = {
    events: sum('events'),
    pages: sum('pages'),
    model_calls: sum('model_calls'),
    input_tokens: sum('input_tokens'),
    output_tokens: sum('output_tokens'),
    credits: round(sum('credits')),
    unsupported_values: sum('unsupported_values'),
    money: sumMoney(items),
  };
  return { from: from.toISOString(), to: to.toISOString(), group_by: groupBy, items, totals };
}

const FIGURE_PROPS = {
  events: { type: 'integer', description: 'Usage events (one per extraction, task, run, build or heal)' },
  pages: { type: 'integer' },
  model_calls: { type: 'integer' },
  input_tokens: { type: 'integer' },
  output_tokens: { type: 'integer' },
  credits: { type: 'number' },
  unsupported_values: { type: 'integer', description: 'Values the grounding check did not find on their page' },
  money: { type: ['object', 'null'], description: "US dollars at the configured model's price (llm.pricing, else the provider's); null when unpriced" },
} as const;

export const USAGE_QUERY = {
  type: 'object',
  properties: {
    from: { type: 'string', minLength: 1, maxLength: 40, description: 'Start (inclusive): a date or ISO date-time; default the start of this UTC month' },
    to: { type: 'string', minLength: 1, maxLength: 40, description: 'End (exclusive); default now' },
    group_by: { enum: ['day', 'scraper', 'kind'], default: 'day' },
  },
} as const;

export const USAGE_RESPONSE = {
  type: 'object',
  required: ['from', 'to', 'group_by', 'items', 'totals'],
  properties: {
    from: { type: 'string', format: 'date-time' },
    to: { type: 'string', format: 'date-time' },
    group_by: { enum: ['day', 'scraper', 'kind'] },
    items: {
      type: 'array',
      items: { type: 'object', properties: { key: { type: ['string', 'null'] }, name: { type: ['string', 'null'] }, ...FIGURE_PROPS } },
    },
    totals: { type: 'object', properties: FIGURE_PROPS },
  },
} as const;
