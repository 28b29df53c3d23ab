// The snapshot archive's request fields and parameters beyond runs (Gleaner extensions, docs/api.md
// "Snapshot archive"): the per-request flag of extractions and tasks, a document by its hash, a
// task's pages.

/** `snapshots` on extract, parse, extract_markdown, extract_async and agent tasks. */
export const SNAPSHOTS_FIELD = {
  snapshots: {
    type: ['boolean', 'null'],
    description:
      "Gleaner extension: keep the pages read in the snapshot archive (default: the owner's setting, PUT /v1/snapshots/settings; off unless set). One-off extractions list them in `snapshots` (GET /v1/snapshots/{hash}); tasks at GET /v1/tasks/{task_id}/snapshot.",
  },
} as const;

export const DOCUMENT_PARAMS = {
  type: 'object',
  required: ['hash'],
  properties: {
    hash: {
      type: 'string',
      pattern: '^(sha256:)?[0-9a-fA-F]{64}$',
      description: "The document's SHA-256: 64 hex digits, or `sha256:<hex>` as provenance writes it.",
    },
  },
} as const;

export const TASK_SNAPSHOT_PARAMS = {
  type: 'object',
  required: ['task_id'],
  properties: { task_id: { type: 'string', minLength: 1, maxLength: 200 } },
} as const;

export const TASK_SNAPSHOT_QUERY = {
  type: 'object',
  properties: { page: { type: 'integer', minimum: 1, maximum: 10000, default: 1, description: 'The page, from 1, in the order the task read them.' } },
} as const;

/** The `snapshots` list of an extraction response (pages kept, in order). */
export const SNAPSHOT_REFS_SCHEMA = {
  type: 'array',
  description: 'Gleaner extension, present when the pages were kept: each page read and its document (GET /v1/snapshots/{hash}).',
  items: {
    type: 'object',
    required: ['page', 'url', 'driver', 'hash'],
    properties: {
      page: { type: 'integer', description: 'From 1, in the order read' },
      url: { type: 'string' },
      driver: { type: 'string', description: "'http', 'playwright', ... or 'content' for /v1/parse" },
      hash: { type: 'string', description: "The document's SHA-256 (hex)" },
    },
  },
} as const;
