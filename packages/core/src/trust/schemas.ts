// JSON Schemas of the provenance and grounding additions to extraction bodies (served in the OpenAPI document).

const SPAN = { type: 'array', items: { type: 'integer' }, minItems: 2, maxItems: 2, description: '[start, end) in the page text the model read' } as const;

const ITEM = {
  type: 'object',
  properties: {
    grounding: { enum: ['verbatim', 'normalised', 'not_found', 'exempt', null] },
    span: SPAN,
    quote: { type: 'string', description: 'The text at span (cut at 300 characters)' },
    source: { enum: ['json-ld', 'microdata', 'meta'] },
    path: { type: 'string', description: 'JSON-LD / microdata path, or meta key' },
    transform: { type: 'array', items: { type: 'string' }, description: 'number, round, url, date, bool, or the recipe transforms' },
  },
} as const;

/** `_provenance` of a record: attribute name -> where its value came from. */
export const PROVENANCE_SCHEMA = {
  type: 'object',
  description: 'Present only with provenance: true (a Gleaner extension): per field, where its value came from.',
  additionalProperties: {
    type: 'object',
    required: ['url', 'content_hash', 'method', 'grounding', 'transform'],
    properties: {
      ...ITEM.properties,
      url: { type: 'string' },
      content_hash: { type: 'string', description: 'sha256:<hex> of the page HTML as fetched or supplied' },
      method: { enum: ['text', 'structured', 'selector', 'computed', 'absent'] },
      exempt: { type: 'string', description: 'Why the value was not checked' },
      selector: { type: 'object', description: 'Code mode: the recipe rule (container, selector, read, attr/name/path, fallback depth)' },
      items: { type: 'array', items: ITEM, description: 'Lists: each item' },
      dropped: { type: 'boolean' },
    },
  },
} as const;

export const WARNINGS_SCHEMA = {
  type: 'array',
  description: 'Present with grounding flag or drop (a Gleaner extension): values not found on the page the model read.',
  items: {
    type: 'object',
    required: ['record', 'field', 'value', 'url', 'action', 'msg'],
    properties: {
      record: { type: ['integer', 'null'], description: 'Index in data; null when the record lost every value and is not in data' },
      field: { type: 'string' },
      value: {},
      url: { type: 'string' },
      action: { enum: ['flagged', 'dropped'] },
      msg: { type: 'string' },
    },
  },
} as const;
