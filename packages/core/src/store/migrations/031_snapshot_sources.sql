-- The snapshot archive beyond scraper runs (Gleaner extension): the pages one-off extractions,
-- asynchronous extraction tasks and agent tasks fetched, and a directory as the store of the
-- compressed documents (the index stays here).

-- Which page an extraction or task fetched: a one-off extraction has no task (task_id null), a task
-- keeps its pages under its id (a retried task replaces them).
CREATE TABLE snapshot_pages (
  id bigserial PRIMARY KEY,
  owner_id text NOT NULL REFERENCES owners(id) ON DELETE CASCADE,
  source text NOT NULL CHECK (source IN ('extract', 'parse', 'extract_markdown', 'extract_async', 'agent')),
  task_id text REFERENCES tasks(id) ON DELETE CASCADE,
  page integer NOT NULL,
  url text NOT NULL,
  driver text,
  hash text NOT NULL,
  fetched_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX snapshot_pages_task_idx ON snapshot_pages (task_id, page) WHERE task_id IS NOT NULL;
CREATE INDEX snapshot_pages_owner_hash_idx ON snapshot_pages (owner_id, hash);
CREATE INDEX snapshot_pages_hash_idx ON snapshot_pages (hash);
CREATE INDEX snapshot_pages_fetched_idx ON snapshot_pages (fetched_at);

-- The owner's defaults for one-off extractions (extract, parse, extract_markdown) and for tasks
-- (extract_async, agent tasks) that do not say.
ALTER TABLE snapshot_settings ADD COLUMN extractions boolean NOT NULL DEFAULT false;
ALTER TABLE snapshot_settings ADD COLUMN tasks boolean NOT NULL DEFAULT false;

-- Where a document's compressed bytes are: in `content`, or in snapshots.directory (content null).
ALTER TABLE snapshots ADD COLUMN storage text NOT NULL DEFAULT 'postgres' CHECK (storage IN ('postgres', 'directory'));
ALTER TABLE snapshots ALTER COLUMN content DROP NOT NULL;
ALTER TABLE snapshots ADD CONSTRAINT snapshots_content_where CHECK ((storage = 'postgres') = (content IS NOT NULL));

-- The encoding of a document kept as the server sent it (WHATWG name), for a page not in UTF-8;
-- null: UTF-8 (the page as read, or bytes sent in UTF-8).
ALTER TABLE snapshots ADD COLUMN charset text;

-- When a page last referred to the document: pruning leaves documents used within the last hour
-- (a page being recorded for one that no page referred to any more).
ALTER TABLE snapshots ADD COLUMN used_at timestamptz NOT NULL DEFAULT now();
