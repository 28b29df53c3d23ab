/**
 * The snapshot archive (a Gleaner extension): the documents run items fetched, each stored once by
 * its SHA-256 (gzip-compressed, in Postgres) however many runs fetched the same bytes, and which
 * page of which run item fetched which document. A document is the page as the recipe read it,
 * UTF-8 encoded: for a page served as UTF-8 that is the bytes the site sent.
 */
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { GleanerError } from '../errors.ts';
import type { Queryable } from '../store/db.ts';

export interface ArchivedPage {
  url: string;
  driver: string;
  html: string;
}

export const documentHash = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/**
 * Archives the pages one run item read (page 1 first). Only documents the archive does not hold yet
 * are compressed and written; a retried item replaces its earlier pages.
 */
export async function archivePages(db: Queryable, runId: string, position: number, pages: ArchivedPage[]): Promise<void> {
  const docs = pages.map((p) => {
    const bytes = Buffer.from(p.html, 'utf8');
    return { ...p, bytes, hash: documentHash(bytes) };
  });
  const hashes = [...new Set(docs.map((d) => d.hash))];
  const { rows } = await db.query<{ hash: string }>('SELECT hash FROM snapshots WHERE hash = ANY($1::text[])', [hashes]);
  const known = new Set(rows.map((r) => r.hash));
  const fresh = docs.filter((d) => !known.has(d.hash) && known.add(d.hash));
  for (const d of fresh) {
    const stored = gzipSync(d.bytes);
    await db.query('INSERT INTO snapshots (hash, bytes, stored_bytes, content) VALUES ($1, $2, $3, $4) ON CONFLICT (hash) DO NOTHING', [
      d.hash,
      d.bytes.length,
      stored.length,
      stored,
    ]);
  }
  await db.query(
    `WITH input AS (
       SELECT t.n::int AS page, t.url, t.driver, t.hash FROM unnest($3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS t(url, driver, hash, n)
     ), dropped AS (
       DELETE FROM run_item_pages WHERE run_id = $1 AND position = $2 AND page > (SELECT count(*) FROM input)
     )
     INSERT INTO run_item_pages (run_id, position, page, url, driver, hash)
     SELECT $1, $2, page, url, driver, hash FROM input
     ON CONFLICT (run_id, position, page) DO UPDATE SET url = excluded.url, driver = excluded.driver, hash = excluded.hash, fetched_at = now()`,
    [runId, position, docs.map((d) => d.url), docs.map((d) => d.driver), docs.map((d) => d.hash)],
  );
}

export interface Snapshot {
  url: string;
  driver: string | null;
  hash: string;
  fetchedAt: Date;
  /** Pages the item read (this is one of them). */
  pages: number;
  content: Buffer;
}

/** One archived page of an owner's run item (item = the URL's 0-based index, page from 1); NOT_FOUND with the reason. */
export async function readSnapshot(db: Queryable, ownerId: string, runId: string, item: number, page = 1): Promise<Snapshot> {
  const { rows: runs } = await db.query<{ total: number }>('SELECT total FROM runs WHERE id = $1 AND owner_id = $2', [runId, ownerId]);
  if (!runs[0]) throw new GleanerError('NOT_FOUND', `Run ${runId} not found`);
  if (item >= runs[0].total) throw new GleanerError('NOT_FOUND', `Run ${runId} has ${runs[0].total} item(s): items are numbered 0 to ${runs[0].total - 1}`);
  const { rows } = await db.query<{ url: string; driver: string | null; hash: string; fetched_at: Date; pages: number; content: Buffer | null }>(
    `SELECT p.url, p.driver, p.hash, p.fetched_at, (SELECT count(*)::int FROM run_item_pages c WHERE c.run_id = p.run_id AND c.position = p.position) AS pages,
            s.content
       FROM run_item_pages p LEFT JOIN snapshots s ON s.hash = p.hash
      WHERE p.run_id = $1 AND p.position = $2 AND p.page = $3`,
    [runId, item, page],
  );
  const r = rows[0];
  if (!r || !r.content) {
    throw new GleanerError(
      'NOT_FOUND',
      `No snapshot of page ${page} of item ${item} of run ${runId}: the run kept none (start it with "snapshots": true, or from a schedule), the page failed or was not read, or the archive's retention (snapshots.retentionDays) removed it`,
    );
  }
  return { url: r.url, driver: r.driver, hash: r.hash, fetchedAt: r.fetched_at, pages: r.pages, content: gunzipSync(r.content) };
}

/** Every archived page of a run, item by item (for a replay): position -> pages in order. */
export async function runDocuments(db: Queryable, runId: string): Promise<Map<number, Array<{ url: string; html: string }>>> {
  const { rows } = await db.query<{ position: number; url: string; content: Buffer }>(
    `SELECT p.position, p.url, s.content FROM run_item_pages p JOIN snapshots s ON s.hash = p.hash
      WHERE p.run_id = $1 ORDER BY p.position, p.page`,
    [runId],
  );
  const out = new Map<number, Array<{ url: string; html: string }>>();
  for (const r of rows) {
    const list = out.get(r.position) ?? [];
    list.push({ url: r.url, html: gunzipSync(r.content).toString('utf8') });
    out.set(r.position, list);
  }
  return out;
}

export interface ArchiveUsage {
  /** Pages archived for the owner's runs. */
  pages: number;
  /** Distinct documents they refer to. */
  documents: number;
  /** What the pages would take stored one by one, uncompressed. */
  page_bytes: number;
  /** The distinct documents, uncompressed and as stored (compressed). */
  document_bytes: number;
  stored_bytes: number;
  /** page_bytes / stored_bytes: what deduplication and compression save together. */
  ratio: number | null;
  oldest: string | null;
  retention_days: number;
}

/** The size report of an owner's part of the archive. */
export async function archiveUsage(db: Queryable, ownerId: string, retentionDays: number): Promise<ArchiveUsage> {
  const { rows } = await db.query<{ pages: number; documents: number; page_bytes: string; document_bytes: string; stored_bytes: string; oldest: Date | null }>(
    `WITH pages AS (
       SELECT p.hash, p.fetched_at FROM run_item_pages p JOIN runs r ON r.id = p.run_id WHERE r.owner_id = $1
     ), docs AS (
       SELECT s.bytes, s.stored_bytes FROM snapshots s WHERE s.hash IN (SELECT hash FROM pages)
     )
     SELECT (SELECT count(*)::int FROM pages) AS pages, (SELECT count(*)::int FROM docs) AS documents,
            (SELECT coalesce(sum(s.bytes), 0) FROM pages p JOIN snapshots s ON s.hash = p.hash) AS page_bytes,
            (SELECT coalesce(sum(bytes), 0) FROM docs) AS document_bytes, (SELECT coalesce(sum(stored_bytes), 0) FROM docs) AS stored_bytes,
            (SELECT min(fetched_at) FROM pages) AS oldest`,
    [ownerId],
  );
  const r = rows[0];
  const stored = Number(r.stored_bytes);
  return {
    pages: r.pages,
    documents: r.documents,
    page_bytes: Number(r.page_bytes),
    document_bytes: Number(r.document_bytes),
    stored_bytes: stored,
    ratio: stored ? Math.round((Number(r.page_bytes) / stored) * 100) / 100 : null,
    oldest: r.oldest?.toISOString() ?? null,
    retention_days: retentionDays,
  };
}

/** Drops pages older than the retention, then documents no page refers to. Returns what went. */
export async function pruneArchive(db: Queryable, retentionDays: number): Promise<{ pages: number; documents: number }> {
  let pages = 0;
  if (retentionDays > 0) {
    pages = (await db.query(`DELETE FROM run_item_pages WHERE fetched_at < now() - make_interval(days => $1)`, [retentionDays])).rowCount ?? 0;
  }
  const documents = (await db.query(`DELETE FROM snapshots s WHERE NOT EXISTS (SELECT 1 FROM run_item_pages p WHERE p.hash = s.hash)`)).rowCount ?? 0;
  return { pages, documents };
}

/** The owner's default for runs that do not say whether to keep their pages (off unless set). */
export async function ownerKeepsSnapshots(db: Queryable, ownerId: string): Promise<boolean> {
  const { rows } = await db.query<{ runs: boolean }>('SELECT runs FROM snapshot_settings WHERE owner_id = $1', [ownerId]);
  return rows[0]?.runs ?? false;
}

export async function setOwnerSnapshots(db: Queryable, ownerId: string, runs: boolean): Promise<void> {
  await db.query(
    `INSERT INTO snapshot_settings (owner_id, runs) VALUES ($1, $2)
     ON CONFLICT (owner_id) DO UPDATE SET runs = excluded.runs, updated_at = now()`,
    [ownerId, runs],
  );
}
