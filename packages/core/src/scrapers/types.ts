import type { Attribute, ExtractedRecord } from '../records/attributes.ts';
import type { Recipe } from '../recipes/index.ts';
import type { ScraperStatus, ScraperType } from '../schemas/statuses.ts';

/** A scraper's type (its `type` in bodies). */
export type ScraperKind = ScraperType;
export type { ScraperStatus };

/** One custom parameter of an agentic scraper (spec 2.4); without `default` it is required. */
export interface ParameterSpec {
  name: string;
  type: string;
  description?: string;
  default?: unknown;
  /** A `secret` or `totp` parameter whose value is stored (encrypted) with the scraper: a run may leave it out. */
  stored?: boolean;
}

/** What a build was asked to start from (stored with the scraper, read by the build job). */
export interface ScraperBuildRequest {
  /** The sample page; with `content`, only the base URL of relative links (may be null). */
  url: string | null;
  /** HTML or text given instead of fetching `url`. */
  content: string | null;
  /** Canonical proxy country, or null. */
  proxyCountry: string | null;
  /** Normalised cookies (net/cookies.ts `Cookie`). */
  cookies: unknown[];
  /** Agentic builds: the hosts the agent may browse (agent/domains.ts); absent: no policy. */
  allowedDomains?: string[];
  /** Agentic builds: the secret parameters, sealed (secrets/vault.ts): a list of SecretInput. */
  secrets?: string;
  /** Agentic builds and runs: the browser profile to start from (its cookies). */
  profile?: string;
  /** Agentic builds and runs: the profile the browser state is saved to when the script has run. */
  saveProfile?: string;
  /** The build's `max_credits` / `max_tokens` (Gleaner extensions); absent: no request budget. */
  maxCredits?: number;
  maxTokens?: number;
}

/**
 * A scraper as operations and runs see it.
 *
 * `recipe` is the last accepted recipe (version `recipeVersion`) and stays usable while a
 * regeneration is in progress (`status` `generating`) and after a regeneration failed (`status`
 * `failed`, `error` says why): a scraper can run whenever `recipe` is not null.
 */
export interface ScraperRecord {
  id: string;
  ownerId: string;
  kind: ScraperKind;
  name: string;
  mode: string;
  url: string | null;
  status: ScraperStatus;
  error: string | null;
  attributes: Attribute[];
  prompt: string;
  recipeVersion: number | null;
  recipe: Recipe | null;
  sampleData: ExtractedRecord[] | null;
  sampleDriver: string | null;
  script: unknown | null;
  parametersSchema: ParameterSpec[] | null;
  driftReason: string | null;
  createdAt: string;
  /** Extra fields (beyond the cross-helper contract). */
  errorCode: string | null;
  driftDetectedAt: string | null;
  creditsCharged: number;
  buildId: string | null;
  request: ScraperBuildRequest | null;
}

/** Layout drift a run found and no heal or regeneration has fixed yet. */
export type ScraperDrift = { detected_at: string; reason: string | null } | null;

/** GET /v1/extractor/{id}: spec 2.3 with the extra fields of docs/api.md (EXTRACTOR_RESPONSE). */
export interface ExtractorBody {
  template_id: string;
  type: 'extractor';
  name: string;
  mode: string;
  url: string | null;
  status: ScraperStatus;
  /** Why the last build failed (status failed only). */
  error?: string;
  attributes: Attribute[];
  prompt: string;
  recipe_version: number | null;
  recipe: Recipe | null;
  sample_data: ExtractedRecord[] | null;
  credits_charged: number;
  drift: ScraperDrift;
  created_at: string;
}

/** GET /v1/agent/{id}: spec 2.4, with the last build's prompt and attributes (AGENTIC_RESPONSE). */
export interface AgenticBody {
  template_id: string;
  type: 'agentic';
  status: ScraperStatus;
  name: string;
  url: string | null;
  error?: string;
  sample_data: ExtractedRecord[] | null;
  /** Only when the scraper takes custom parameters. */
  parameters_schema?: ParameterSpec[];
  prompt: string;
  attributes: Attribute[];
  credits_charged: number;
  created_at: string;
}
