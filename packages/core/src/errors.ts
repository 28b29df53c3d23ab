/**
 * Typed errors of the engine. Core throws only GleanerError (or lets a bug surface as INTERNAL);
 * the HTTP adapter maps `code` to a status in one place, and jobs carry errors across processes
 * through `toJSON()` / `GleanerError.fromJSON()`.
 */

/** Every stable error code, what it means, and whether retrying the same request can help. */
export const ERROR_CODES = {
  VALIDATION_FAILED: { retryable: false, description: 'The request does not match its schema; `detail` lists each problem.' },
  BAD_REQUEST: { retryable: false, description: 'The request is well-formed but cannot be served as asked (e.g. parameter rules of a scraper).' },
  UNAUTHORIZED: { retryable: false, description: 'Missing, unknown, revoked or expired API key or access token.' },
  NOT_FOUND: { retryable: false, description: "No such resource for this owner (another owner's id answers the same)." },
  CONFLICT: { retryable: false, description: 'The resource exists already or is in a state that forbids the operation.' },
  PAYLOAD_TOO_LARGE: { retryable: false, description: 'The request body is larger than server.bodyLimitBytes.' },
  RATE_LIMITED: { retryable: true, description: 'Too many requests; retry after the Retry-After header.' },
  CONFIG_INVALID: { retryable: false, description: 'The configuration (options, environment or file) is invalid; the message names the field.' },
  PLUGIN_INCOMPATIBLE: {
    retryable: false,
    description: 'A driver or model provider implements another plugin API version than this @gleaner/core (createEngine refuses it); the message names both.',
  },
  DATABASE_UNAVAILABLE: { retryable: true, description: 'Postgres cannot be reached or answered with a connection error.' },
  SERVER_UNREACHABLE: {
    retryable: true,
    description: 'A scripting command (`gleaner extract`, `markdown`, `run`) could not reach the server at --server / GLEANER_SERVER.',
  },
  CONSOLE_NOT_BUILT: {
    retryable: false,
    description: 'The web console at / has not been built on this server (`make setup` builds it); the API is unaffected.',
  },
  JOB_PAYLOAD_INVALID: { retryable: false, description: "A job was sent with a payload that does not match its job kind's schema." },
  JOB_ABORTED: { retryable: true, description: 'A job was aborted (shutdown or expiry) before it finished; it is retried.' },
  MODEL_NOT_CONFIGURED: { retryable: false, description: 'No model provider is configured or reachable for an operation that needs one.' },
  MODEL_UNAVAILABLE: { retryable: true, description: 'The model provider could not be reached or kept failing (5xx, 429) after retries.' },
  MODEL_TIMEOUT: { retryable: true, description: 'The model did not answer within llm.timeoutMs after retries.' },
  MODEL_BAD_OUTPUT: { retryable: true, description: "The model's answer was not valid JSON for the requested schema, even after one repair round." },
  MODEL_REQUEST_REJECTED: { retryable: false, description: 'The model provider refused the request (4xx other than 429: bad key, unknown model, bad input).' },
  URL_INVALID: { retryable: false, description: 'The URL is not an absolute http(s) URL.' },
  URL_BLOCKED: { retryable: false, description: 'The SSRF guard refused the address (private, loopback, link-local, ...); the message names it.' },
  PROXY_COUNTRY_UNKNOWN: { retryable: false, description: 'proxy_country is not one of GET /v1/proxy-countries.' },
  PROXY_NOT_CONFIGURED: {
    retryable: false,
    description:
      'proxy_country names a country with no proxy configured and network.unproxiedCountry is refuse; the message lists the countries that have one.',
  },
  FETCH_FAILED: {
    retryable: true,
    description: 'The page (or a callback target) could not be reached: DNS, connection refused or reset, TLS, proxy failure, or an error status.',
  },
  FETCH_TIMEOUT: { retryable: true, description: 'The page did not arrive within fetch.timeoutMs (a callback target: within callbacks.timeoutMs).' },
  FETCH_TOO_LARGE: { retryable: false, description: 'The page is larger than fetch.maxBytes.' },
  TOO_MANY_REDIRECTS: { retryable: false, description: 'More redirects than fetch.maxRedirects.' },
  UNSUPPORTED_CONTENT: { retryable: false, description: 'The page is not HTML or text (e.g. an image or PDF).' },
  DRIVER_UNAVAILABLE: { retryable: true, description: 'No driver can serve the request (browser missing or failed to start).' },
  NEEDS_BROWSER: {
    retryable: false,
    description:
      'A page action needs JavaScript (e.g. a button with no link or form behind it) on a driver without it; the agent moves the task to a browser driver.',
  },
  AGENT_BUDGET_EXHAUSTED: {
    retryable: false,
    description: 'An agent task used up its steps, model tokens or wall time (agent.*) before finishing and had gathered no records.',
  },
  BUDGET_EXCEEDED: {
    retryable: false,
    description:
      "The work would pass a budget: the request's max_credits / max_tokens, or the owner's daily or monthly budget (GET /v1/settings); `details` says which, the limit, what is spent and the estimate.",
  },
  AGENT_LOOP: {
    retryable: false,
    description: 'An agent task kept repeating an action that changed nothing and was stopped before it had gathered any record.',
  },
  AGENT_STOPPED: { retryable: false, description: 'The agent task was stopped (POST /v1/agent/extract/{id}/stop) or its scraper build was deleted.' },
  SCRAPER_NOT_READY: {
    retryable: false,
    description: 'The scraper has no recipe to run yet: it was never generated, is still generating, or its build failed.',
  },
  SCRAPER_BUILD_FAILED: {
    retryable: false,
    description: 'Generation could not produce a recipe that reproduces standard extraction on the sample page; the message says what was missing.',
  },
  LAYOUT_CHANGED: {
    retryable: false,
    description:
      'A scraper run found the page layout changed: the recipe returned no records, or missed required fields on most records, where the sample worked.',
  },
  SCRIPT_INVALID: {
    retryable: false,
    description: 'An agentic scraper\'s script does not match the script schema (docs/api.md, "Agentic scrapers"), or uses a parameter the run did not give.',
  },
  ROBOTS_DISALLOWED: {
    retryable: false,
    description:
      "The site's robots.txt disallows the URL for robots.userAgent; a run item is then skipped with this reason (an owner setting can turn robots.txt off).",
  },
  SECRETS_KEY_MISSING: {
    retryable: false,
    description: 'A profile or a secret parameter was used but auth.secretsKey (GLEANER_SECRETS_KEY) is not set, or a stored one cannot be decrypted with it.',
  },
  INTERNAL: { retryable: false, description: 'An unexpected error; the logs carry the details under the request id.' },
} as const satisfies Record<string, { retryable: boolean; description: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface GleanerErrorJSON {
  name: 'GleanerError';
  code: ErrorCode;
  message: string;
  retryable: boolean;
  details?: unknown;
}

export class GleanerError extends Error {
  readonly code: ErrorCode;
  readonly retryable: boolean;
  readonly details?: unknown;

  constructor(code: ErrorCode, message: string, opts: { retryable?: boolean; details?: unknown; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'GleanerError';
    this.code = code;
    this.retryable = opts.retryable ?? ERROR_CODES[code].retryable;
    if (opts.details !== undefined) this.details = opts.details;
  }

  toJSON(): GleanerErrorJSON {
    const out: GleanerErrorJSON = { name: 'GleanerError', code: this.code, message: this.message, retryable: this.retryable };
    if (this.details !== undefined) out.details = this.details;
    return out;
  }

  static fromJSON(value: unknown): GleanerError {
    if (value && typeof value === 'object' && (value as GleanerErrorJSON).name === 'GleanerError') {
      const v = value as GleanerErrorJSON;
      const code: ErrorCode = v.code in ERROR_CODES ? v.code : 'INTERNAL';
      return new GleanerError(code, String(v.message), { retryable: Boolean(v.retryable), details: v.details });
    }
    const message = value && typeof value === 'object' && 'message' in value ? String((value as { message: unknown }).message) : String(value);
    return new GleanerError('INTERNAL', message);
  }
}

/** One problem of a request, as the 422 body lists it (spec 2.9): `loc` starts with body/path/query. */
export interface ValidationIssue {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

/** VALIDATION_FAILED carrying its issues; the HTTP adapter answers 422 `{detail: issues}`. */
export function validationFailed(issues: ValidationIssue[]): GleanerError {
  return new GleanerError('VALIDATION_FAILED', issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '), { details: issues });
}

export function isGleanerError(err: unknown): err is GleanerError {
  return err instanceof GleanerError;
}

/** Turns anything thrown into a GleanerError; unknown errors become INTERNAL with their cause kept. */
export function toGleanerError(err: unknown): GleanerError {
  if (err instanceof GleanerError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new GleanerError('INTERNAL', message, { cause: err });
}
