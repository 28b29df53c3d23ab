/**
 * The snapshot archive (a Gleaner extension): the documents runs, extractions and tasks fetched, each
 * stored once by its SHA-256 (gzip-compressed, in Postgres or in a directory) however many of them
 * fetched the same bytes, and which page of which run item, extraction or task fetched which
 * document. A document is the bytes the site sent when the driver has them (the HTTP driver, for a
 * page it has not changed), with their encoding; otherwise the page as the recipe or model read it
 * (a browser's rendered DOM), UTF-8 encoded.
 *
 * The index is always in Postgres: `snapshots` (one row per document: sizes, and where its
 * compressed bytes are), `run_item_pages` (run items) and `snapshot_pages` (extractions and tasks).
 */
import { createHash, randomUUID } from 'node:crypto';
import { access, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { GleanerConfig } from '../config/types.ts';
import { GleanerError } from '../errors.ts';
import type { Database, Queryable } from '../store/db.ts';

export interface ArchivedPage {
  url: string;
  driver: string;
  html: string;
  /** The bytes `html` was decoded from, as sent (PageSnapshot.body), and their encoding. */
  body?: Uint8Array;
  charset?: string;
}

/** What the archive stores of a page: its bytes as sent when known, else its text in UTF-8; the encoding when not UTF-8. */
function documentOf(p: ArchivedPage): { bytes: Buffer; charset: string | null } {
  if (!p.body) return { bytes: Buffer.from(p.html, 'utf8'), charset: null };
  const charset = p.charset && p.charset.toLowerCase() !== 'utf-8' ? p.charset : null;
  return { bytes: Buffer.from(p.body.buffer, p.body.byteOffset, p.body.byteLength), charset };
}

/** A document's text, decoded as the driver decoded it (for a replay). */
function documentText(bytes: Buffer, charset: string | null): string {
  return charset ? new TextDecoder(charset).decode(bytes) : bytes.toString('utf8');
}

/** Where new documents go (snapshots.storage), and the directory of those stored there (snapshots.directory). */
export interface ArchiveStore {
  db: Database;
  storage: 'postgres' | 'directory';
  /** Absolute; null when snapshots.directory is not set. */
  directory: string | null;
}

export function archiveStore(ctx: { db: Database; config: Pick<GleanerConfig, 'snapshots'> }): ArchiveStore {
  const { storage, directory } = ctx.config.snapshots;
  return { db: ctx.db, storage, directory: directory ? path.resolve(directory) : null };
}

export const documentHash = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

const HASH = /^(?:sha256:)?([0-9a-f]{64})$/;

/** A document's hash as the archive names it: 64 lowercase hex digits (a `sha256:` prefix, as provenance writes it, is dropped). */
export function normalizeHash(value: string): string | null {
  return HASH.exec(value.trim().toLowerCase())?.[1] ?? null;
}

/** A document's file under the directory: <dir>/<first 2 hex digits>/<hash>.gz. */
export const documentFile = (directory: string, hash: string): string => path.join(directory, hash.slice(0, 2), `${hash}.gz`);

/** Writes the file whole or not at all (a temporary file renamed into place), so a reader never sees part of one. */
async function writeDocumentFile(directory: string, hash: string, stored: Buffer): Promise<void> {
  const file = documentFile(directory, hash);
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.${randomUUID()}.tmp`;
  try {
    await writeFile(tmp, stored);
    await rename(tmp, file);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}

/** A document stored in the directory that pruning must not remove while a page is being recorded for it. */
const PRUNE_GRACE = "interval '1 hour'";

/**
 * Stores the documents of `pages` the archive does not hold yet (compressed, where snapshots.storage
 * says) and returns each page's hash, in order. A document already held is marked used (`used_at`):
 * pruning leaves a document used within the last hour, so the page about to refer to it finds it.
 * In the directory, the index row comes first and the file after: a prune deleting the row holds it
 * until its files are gone, so a writer waiting on the row writes its file after them; a missing
 * file of a known document (a writer stopped between the two) is written again.
 */
async function storeDocuments(store: ArchiveStore, pages: ArchivedPage[]): Promise<string[]> {
  const docs = pages.map((p) => {
    const doc = documentOf(p);
    return { ...doc, hash: documentHash(doc.bytes) };
  });
  const hashes = [...new Set(docs.map((d) => d.hash))];
  const { rows } = await store.db.query<{ hash: string; storage: string }>(
    'UPDATE snapshots SET used_at = now() WHERE hash = ANY($1::text[]) RETURNING hash, storage',
    [hashes],
  );
  const known = new Set(rows.map((r) => r.hash));
  for (const r of rows) {
    if (r.storage !== 'directory' || !store.directory) continue;
    const file = documentFile(store.directory, r.hash);
    if (
      !(await access(file).then(
        () => true,
        () => false,
      ))
    ) {
      const d = docs.find((x) => x.hash === r.hash)!;
      await writeDocumentFile(store.directory, r.hash, gzipSync(d.bytes));
    }
  }
  const fresh = docs.filter((d) => !known.has(d.hash) && known.add(d.hash));
  for (const d of fresh) {
    const stored = gzipSync(d.bytes);
    if (store.storage === 'directory') {
      const { rows: row } = await store.db.query<{ storage: string }>(
        `INSERT INTO snapshots (hash, bytes, stored_bytes, content, storage, charset) VALUES ($1, $2, $3, NULL, 'directory', $4)
         ON CONFLICT (hash) DO UPDATE SET used_at = now() RETURNING storage`,
        [d.hash, d.bytes.length, stored.length, d.charset],
      );
      if (row[0].storage === 'directory') await writeDocumentFile(store.directory!, d.hash, stored);
    } else {
      await store.db.query(
        `INSERT INTO snapshots (hash, bytes, stored_bytes, content, storage, charset) VALUES ($1, $2, $3, $4, 'postgres', $5) ON CONFLICT (hash) DO NOTHING`,
        [d.hash, d.bytes.length, stored.length, stored, d.charset],
      );
    }
  }
  return docs.map((d) => d.hash);
}

/** A document's bytes, uncompressed, from where it is stored; NOT_FOUND with the reason when they cannot be read. */
async function loadDocument(store: ArchiveStore, doc: { hash: string; storage: string; content: Buffer | null }): Promise<Buffer> {
  if (doc.content) return gunzipSync(doc.content);
  if (!store.directory) {
    throw new GleanerError('NOT_FOUND', `Document ${doc.hash} is stored in a directory, and snapshots.directory is not set on this server`);
  }
  try {
    return gunzipSync(await readFile(documentFile(store.directory, doc.hash)));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new GleanerError('NOT_FOUND', `Document ${doc.hash} is missing from snapshots.directory (${store.directory})`);
    }
    throw err;
  }
}

/**
 * Archives the pages one run item read (page 1 first). Only documents the archive does not hold yet
 * are compressed and written; a retried item replaces its earlier pages.
 */
export async function archivePages(store: ArchiveStore, runId: string, position: number, pages: ArchivedPage[]): Promise<void> {
  const hashes = await storeDocuments(store, pages);
  await store.db.query(
    `WITH input AS (
       SELECT t.n::int AS page, t.url, t.driver, t.hash FROM unnest($3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS t(url, driver, hash, n)
     ), dropped AS (
       DELETE FROM run_item_pages WHERE run_id = $1 AND position = $2 AND page > (SELECT count(*) FROM input)
     )
     INSERT INTO run_item_pages (run_id, position, page, url, driver, hash)
     SELECT $1, $2, page, url, driver, hash FROM input
     ON CONFLICT (run_id, position, page) DO UPDATE SET url = excluded.url, driver = excluded.driver, hash = excluded.hash, fetched_at = now()`,
    [runId, position, pages.map((d) => d.url), pages.map((d) => d.driver), hashes],
  );
}

/** What fetched a page outside runs: a one-off extraction, or a task (extract_async, agent). */
export type SnapshotSource = 'extract' | 'parse' | 'extract_markdown' | 'extract_async' | 'agent';

/** A kept page, as extraction responses list it. */
export interface SnapshotRef {
  /** From 1, in the order the pages were read. */
  page: number;
  url: string;
  driver: string;
  /** The document's SHA-256 (GET /v1/snapshots/{hash}). */
  hash: string;
}

/**
 * Archives the pages an extraction or a task read (in order) for their owner. A task's pages are
 * kept under its id, and a retried task's replace the earlier attempt's.
 */
export async function archiveSourcePages(
  store: ArchiveStore,
  ownerId: string,
  source: SnapshotSource,
  taskId: string | null,
  pages: ArchivedPage[],
): Promise<SnapshotRef[]> {
  if (!pages.length) return [];
  const hashes = await storeDocuments(store, pages);
  const refs = pages.map((p, i) => ({ page: i + 1, url: p.url, driver: p.driver, hash: hashes[i] }));
  const args = [ownerId, source, taskId, refs.map((r) => r.page), refs.map((r) => r.url), refs.map((r) => r.driver), refs.map((r) => r.hash)];
  const input = `SELECT $1::text AS owner_id, $2::text AS source, $3::text AS task_id, t.page, t.url, t.driver, t.hash
                   FROM unnest($4::int[], $5::text[], $6::text[], $7::text[]) AS t(page, url, driver, hash)`;
  if (taskId === null) await store.db.query(`INSERT INTO snapshot_pages (owner_id, source, task_id, page, url, driver, hash) ${input}`, args);
  else
    await store.db.query(
      `WITH dropped AS (DELETE FROM snapshot_pages WHERE task_id = $3 AND page > cardinality($4::int[]))
       INSERT INTO snapshot_pages (owner_id, source, task_id, page, url, driver, hash) ${input}
       ON CONFLICT (task_id, page) WHERE task_id IS NOT NULL
       DO UPDATE SET url = excluded.url, driver = excluded.driver, hash = excluded.hash, fetched_at = now()`,
      args,
    );
  return refs;
}

export interface Snapshot {
  url: string;
  driver: string | null;
  hash: string;
  fetchedAt: Date;
  /** Pages the item or task read (this is one of them); 1 for a document read by its hash. */
  pages: number;
  content: Buffer;
  /** The encoding of `content` (WHATWG name): `utf-8` unless the page was kept as sent in another. */
  charset: string;
}

type PageRow = {
  url: string;
  driver: string | null;
  hash: string;
  fetched_at: Date;
  pages: number;
  storage: string;
  content: Buffer | null;
  charset: string | null;
};

async function snapshotOf(store: ArchiveStore, r: PageRow): Promise<Snapshot> {
  return {
    url: r.url,
    driver: r.driver,
    hash: r.hash,
    fetchedAt: r.fetched_at,
    pages: r.pages,
    content: await loadDocument(store, r),
    charset: r.charset ?? 'utf-8',
  };
}

/** One archived page of an owner's run item (item = the URL's 0-based index, page from 1); NOT_FOUND with the reason. */
export async function readSnapshot(store: ArchiveStore, ownerId: string, runId: string, item: number, page = 1): Promise<Snapshot> {
  const { rows: runs } = await store.db.query<{ total: number }>('SELECT total FROM runs WHERE id = $1 AND owner_id = $2', [runId, ownerId]);
  if (!runs[0]) throw new GleanerError('NOT_FOUND', `Run ${runId} not found`);
  if (item >= runs[0].total) throw new GleanerError('NOT_FOUND', `Run ${runId} has ${runs[0].total} item(s): items are numbered 0 to ${runs[0].total - 1}`);
  const { rows } = await store.db.query<PageRow>(
    `SELECT p.url, p.driver, p.hash, p.fetched_at, (SELECT count(*)::int FROM run_item_pages c WHERE c.run_id = p.run_id AND c.position = p.position) AS pages,
            s.storage, s.content, s.charset
       FROM run_item_pages p JOIN snapshots s ON s.hash = p.hash
      WHERE p.run_id = $1 AND p.position = $2 AND p.page = $3`,
    [runId, item, page],
  );
  const r = rows[0];
  if (!r) {
    throw new GleanerError(
      'NOT_FOUND',
      `No snapshot of page ${page} of item ${item} of run ${runId}: the run kept none (start it with "snapshots": true, or from a schedule), the page failed or was not read, or the archive's retention (snapshots.retentionDays) removed it`,
    );
  }
  return snapshotOf(store, r);
}

/** One archived page of an owner's task (extract_async or agent; page from 1); NOT_FOUND with the reason. */
export async function readTaskSnapshot(store: ArchiveStore, ownerId: string, taskId: string, page = 1): Promise<Snapshot> {
  const { rows: tasks } = await store.db.query<{ kind: string }>('SELECT kind FROM tasks WHERE id = $1 AND owner_id = $2', [taskId, ownerId]);
  if (!tasks[0]) throw new GleanerError('NOT_FOUND', `Task ${taskId} not found`);
  const { rows } = await store.db.query<PageRow>(
    `SELECT p.url, p.driver, p.hash, p.fetched_at, (SELECT count(*)::int FROM snapshot_pages c WHERE c.task_id = p.task_id) AS pages,
            s.storage, s.content, s.charset
       FROM snapshot_pages p JOIN snapshots s ON s.hash = p.hash
      WHERE p.task_id = $1 AND p.page = $2`,
    [taskId, page],
  );
  const r = rows[0];
  if (!r) {
    const { rows: count } = await store.db.query<{ n: number }>('SELECT count(*)::int AS n FROM snapshot_pages WHERE task_id = $1', [taskId]);
    throw new GleanerError(
      'NOT_FOUND',
      count[0].n
        ? `Task ${taskId} kept ${count[0].n} page(s): pages are numbered 1 to ${count[0].n}`
        : `No snapshot of task ${taskId}: it kept none (submit it with "snapshots": true, or set PUT /v1/snapshots/settings {"tasks": true}), it has not finished or read no page, or the archive's retention (snapshots.retentionDays) removed it`,
    );
  }
  return snapshotOf(store, r);
}

/**
 * A document by its hash, for an owner one of whose runs, extractions or tasks fetched it (the
 * latest such page gives its URL, driver and time); NOT_FOUND otherwise.
 */
export async function readDocument(store: ArchiveStore, ownerId: string, hashInput: string): Promise<Snapshot> {
  const hash = normalizeHash(hashInput);
  if (!hash) throw new GleanerError('NOT_FOUND', `No document ${hashInput}: a document is named by the SHA-256 of its bytes (64 hex digits)`);
  const { rows } = await store.db.query<PageRow>(
    `WITH seen AS (
       SELECT p.url, p.driver, p.fetched_at FROM run_item_pages p JOIN runs r ON r.id = p.run_id WHERE p.hash = $2 AND r.owner_id = $1
       UNION ALL
       SELECT url, driver, fetched_at FROM snapshot_pages WHERE hash = $2 AND owner_id = $1
     )
     SELECT seen.url, seen.driver, s.hash, seen.fetched_at, 1 AS pages, s.storage, s.content, s.charset
       FROM seen JOIN snapshots s ON s.hash = $2 ORDER BY seen.fetched_at DESC LIMIT 1`,
    [ownerId, hash],
  );
  const r = rows[0];
  if (!r) {
    throw new GleanerError(
      'NOT_FOUND',
      `No document ${hash} in your part of the archive: none of your runs, extractions or tasks kept it, or the archive's retention (snapshots.retentionDays) removed it`,
    );
  }
  return snapshotOf(store, r);
}

/** Every archived page of a run, item by item (for a replay): position -> pages in order. */
export async function runDocuments(store: ArchiveStore, runId: string): Promise<Map<number, Array<{ url: string; html: string }>>> {
  const { rows } = await store.db.query<{ position: number; url: string; hash: string; storage: string; content: Buffer | null; charset: string | null }>(
    `SELECT p.position, p.url, s.hash, s.storage, s.content, s.charset FROM run_item_pages p JOIN snapshots s ON s.hash = p.hash
      WHERE p.run_id = $1 ORDER BY p.position, p.page`,
    [runId],
  );
  const out = new Map<number, Array<{ url: string; html: string }>>();
  for (const r of rows) {
    const list = out.get(r.position) ?? [];
    list.push({ url: r.url, html: documentText(await loadDocument(store, r), r.charset) });
    out.set(r.position, list);
  }
  return out;
}

export interface ArchiveUsage {
  /** Pages archived for the owner's runs, extractions and tasks. */
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
  /** Where new documents are stored (snapshots.storage). */
  storage: 'postgres' | 'directory';
}

/** The size report of an owner's part of the archive. */
export async function archiveUsage(store: ArchiveStore, ownerId: string, retentionDays: number): Promise<ArchiveUsage> {
  const { rows } = await store.db.query<{
    pages: number;
    documents: number;
    page_bytes: string;
    document_bytes: string;
    stored_bytes: string;
    oldest: Date | null;
  }>(
    `WITH pages AS (
       SELECT p.hash, p.fetched_at FROM run_item_pages p JOIN runs r ON r.id = p.run_id WHERE r.owner_id = $1
       UNION ALL
       SELECT hash, fetched_at FROM snapshot_pages WHERE owner_id = $1
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
    storage: store.storage,
  };
}

/**
 * Drops pages older than the retention, then documents no page refers to and none used within the
 * last hour (their files too, for those in the directory, before the rows' deletion commits). Returns
 * what went; `files` counts the files removed.
 */
export async function pruneArchive(store: ArchiveStore, retentionDays: number): Promise<{ pages: number; documents: number; files: number }> {
  let pages = 0;
  if (retentionDays > 0) {
    for (const table of ['run_item_pages', 'snapshot_pages']) {
      pages += (await store.db.query(`DELETE FROM ${table} WHERE fetched_at < now() - make_interval(days => $1)`, [retentionDays])).rowCount ?? 0;
    }
  }
  const directory = store.directory;
  return store.db.tx(async (tx) => {
    const { rows } = await tx.query<{ hash: string; storage: string }>(
      `DELETE FROM snapshots s
        WHERE s.used_at < now() - ${PRUNE_GRACE}
          AND NOT EXISTS (SELECT 1 FROM run_item_pages p WHERE p.hash = s.hash) AND NOT EXISTS (SELECT 1 FROM snapshot_pages p WHERE p.hash = s.hash)
        RETURNING s.hash, s.storage`,
    );
    let files = 0;
    for (const r of rows) {
      if (r.storage !== 'directory' || !directory) continue;
      await unlink(documentFile(directory, r.hash)).then(
        () => files++,
        (err: NodeJS.ErrnoException) => {
          if (err.code !== 'ENOENT') throw err;
        },
      );
    }
    return { pages, documents: rows.length, files };
  });
}

/** The owner's defaults for what does not say whether to keep its pages (all off unless set). */
export interface SnapshotDefaults {
  /** Scraper runs (scheduled runs follow their schedule). */
  runs: boolean;
  /** One-off extractions: /v1/extract, /v1/parse, /v1/extract_markdown. */
  extractions: boolean;
  /** Tasks: extract_async and agent tasks. */
  tasks: boolean;
}

export async function ownerSnapshotDefaults(db: Queryable, ownerId: string): Promise<SnapshotDefaults> {
  const { rows } = await db.query<SnapshotDefaults>('SELECT runs, extractions, tasks FROM snapshot_settings WHERE owner_id = $1', [ownerId]);
  return rows[0] ?? { runs: false, extractions: false, tasks: false };
}

/** The owner's default for runs that do not say whether to keep their pages (off unless set). */
export async function ownerKeepsSnapshots(db: Queryable, ownerId: string): Promise<boolean> {
  return (await ownerSnapshotDefaults(db, ownerId)).runs;
}

/** Whether a request keeps its pages: its own `snapshots` flag, else the owner's default for its kind. */
export async function keepsSnapshots(db: Queryable, ownerId: string, flag: unknown, kind: 'extractions' | 'tasks'): Promise<boolean> {
  if (typeof flag === 'boolean') return flag;
  return (await ownerSnapshotDefaults(db, ownerId))[kind];
}

/** Updates the defaults given (the others stay as they were). */
export async function setOwnerSnapshots(db: Queryable, ownerId: string, change: Partial<SnapshotDefaults>): Promise<SnapshotDefaults> {
  const { rows } = await db.query<SnapshotDefaults>(
    `INSERT INTO snapshot_settings (owner_id, runs, extractions, tasks) VALUES ($1, coalesce($2, false), coalesce($3, false), coalesce($4, false))
     ON CONFLICT (owner_id) DO UPDATE SET runs = coalesce($2, snapshot_settings.runs), extractions = coalesce($3, snapshot_settings.extractions),
       tasks = coalesce($4, snapshot_settings.tasks), updated_at = now()
     RETURNING runs, extractions, tasks`,
    [ownerId, change.runs ?? null, change.extractions ?? null, change.tasks ?? null],
  );
  return rows[0];
}
