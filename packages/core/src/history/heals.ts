// Self-heal attempts of scrapers (scraper_heals): written by the heals, in the transaction that
// records their usage; read by GET /v1/scrapers/{id}/versions.
import type { Queryable } from '../store/db.ts';

export interface HealAttempt {
  scraperId: string;
  /** The drift reason that started the heal. */
  trigger: string;
  /** The new version, or null when the heal failed. */
  toVersion: number | null;
  /** Why it failed (ignored when it healed). */
  detail?: string | null;
  fromVersion: number | null;
  url: string | null;
  modelCalls: number;
  credits: number;
}

export async function recordHealAttempt(tx: Queryable, a: HealAttempt): Promise<void> {
  await tx.query(
    `INSERT INTO scraper_heals (scraper_id, trigger, outcome, detail, from_version, to_version, url, model_calls, credits)
     SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9 WHERE EXISTS (SELECT 1 FROM scrapers WHERE id = $1)`,
    [
      a.scraperId,
      a.trigger.slice(0, 2000),
      a.toVersion === null ? 'failed' : 'healed',
      a.toVersion === null ? (a.detail?.slice(0, 2000) ?? null) : null,
      a.fromVersion,
      a.toVersion,
      a.url,
      a.modelCalls,
      a.credits,
    ],
  );
}
