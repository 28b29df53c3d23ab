/**
 * The browsing agent's shared types: what one run of the agent is asked (a goal on a start URL),
 * what it records (every action on a stable target, never an outline ref) and what it returns. The
 * one-shot agent task stores the recording as its `steps`; an agentic scraper's build turns it into
 * a replayable script.
 */
import type { Attribute, ExtractedRecord } from '../records/attributes.ts';
import type { Cookie } from '../net/cookies.ts';
import type { LocalStorageState } from '../plugins/driver.ts';
import type { Driver, InteractiveSession, ScrollOptions } from '../plugins/driver.ts';
import type { ModelUsage } from '../usage.ts';
import type { Secrets } from '../secrets/values.ts';
import type { ReducedPage } from '../page/index.ts';
import type { Recipe } from '../recipes/index.ts';
import type { VisitedPage, VisitLinks } from './visit.ts';

/** The tools the model may call (one per turn). */
export type AgentActionName =
  | 'navigate'
  | 'click'
  | 'type'
  | 'select'
  | 'scroll'
  | 'wait'
  | 'back'
  | 'extract'
  /** List -> detail: open the item pages a listing links to and extract from each (visit.ts). */
  | 'visit'
  | 'finish'
  /** A model answer that was no valid tool call (recorded with ok: false; it cost a step). */
  | 'invalid';

/**
 * How to find an element again, computed from the outline at the moment the action ran. A replay
 * tries `selector` first (unique when recorded: a stable id, test id, name, aria-label, href,
 * placeholder or title, else a short CSS path), then the element whose role and accessible name
 * equal `role` and `name` (see `resolveTarget`).
 */
export interface StableTarget {
  selector: string;
  role: string;
  /** Accessible name (label, text, aria-label), as the outline gave it. */
  name: string;
  tag?: string;
  href?: string;
}

/** One action the agent took, as recorded (also the `steps` summary of a task, trimmed). */
export interface RecordedAction {
  action: AgentActionName;
  /** click, type, select, and scroll to an element. */
  target?: StableTarget;
  /** The text typed (type) or the values chosen (select). */
  value?: string | string[];
  /** type: Enter was pressed after typing. */
  pressEnter?: boolean;
  /** navigate: the URL asked for. */
  url?: string;
  /** scroll: what was asked (`selector` is then the target's selector). */
  scroll?: ScrollOptions;
  /** wait: milliseconds. */
  ms?: number;
  /** extract: records this page gave (before de-duplication). */
  records?: number;
  /** visit: what was opened and how it was read. */
  visit?: VisitSummary;
  /** finish: the model's closing words. */
  message?: string;
  /** The page's URL before and after the action. */
  urlBefore: string;
  urlAfter: string;
  /** False when the action failed (the error was reported back to the model). */
  ok: boolean;
  error?: string;
  /** What changed, as told to the model ("URL changed", "5 new elements", "nothing changed"). */
  effect?: string;
  /** The driver the action ran on. */
  driver: string;
  durationMs: number;
  /** Model tokens of the turn that decided this action. */
  inputTokens: number;
  outputTokens: number;
}

/** What the agent is asked to do. */
export interface AgentGoal {
  prompt: string;
  /** The attributes each record carries (may be empty: the prompt then says what to return). */
  attributes: Attribute[];
}

export interface AgentBudgets {
  maxSteps: number;
  /** Input + output tokens of every model call of the run (decisions and extractions). */
  maxTokens: number;
  wallTimeMs: number;
  /** What set maxTokens, for the message when it runs out (default `agent.maxTokens`). */
  maxTokensBy?: string;
}

/** A page the agent extracted from, kept in memory for the caller (a scraper build makes a recipe of it). */
export interface AgentExtraction {
  /** Index of the extract action in `steps`. */
  step: number;
  url: string;
  html: string;
  driver: string;
  records: ExtractedRecord[];
  /** The page as the model read it (its text is what provenance spans point into). */
  reduced?: ReducedPage;
}

/** A visit as recorded on its step. */
export interface VisitSummary {
  /** The links' URL shape (`/product/*`), or null when the URLs were taken as given. */
  pattern: string | null;
  followPagination: boolean;
  maxItems: number;
  /** Listing pages read, detail pages opened, and how they were read. */
  listingPages: number;
  pages: number;
  byRecipe: number;
  byModel: number;
  failed: number;
}

/** A visit kept in memory for the caller: an agentic build records it as a script step with its recipe. */
export interface AgentVisit {
  /** Index of the visit action in `steps`. */
  step: number;
  /** The listing page it started on. */
  listingUrl: string;
  links: VisitLinks;
  followPagination: boolean;
  maxItems: number;
  /** The recipe verified on the detail pages, null when none held. */
  recipe: Recipe | null;
  pages: VisitedPage[];
}

export type AgentOutcome = 'finished' | 'budget' | 'loop';

export interface AgentRunResult {
  /** Records gathered across pages, de-duplicated. */
  records: ExtractedRecord[];
  steps: RecordedAction[];
  extractions: AgentExtraction[];
  /** The visits (list -> detail) of the run. */
  visits: AgentVisit[];
  usage: ModelUsage;
  /** How the run ended: the model called finish, a budget ran out, or a loop was detected twice. */
  outcome: AgentOutcome;
  /** Set when the run did not end with finish, or when nothing was found: says why. */
  message?: string;
  /** The driver the run ended on (`http` when it never needed a browser). */
  driver: string;
  /** The URL the run ended on. */
  finalUrl: string;
  /** Milliseconds spent waiting for the model (decisions and extractions). */
  modelMs: number;
  /** Steps used, malformed answers included. */
  stepsUsed: number;
  /** The browser state's cookies at the end (a `save_profile` stores them). */
  cookies: Cookie[];
  /** keepState: the browser's local storage at the end, by origin (a `save_profile` stores it). */
  localStorage?: LocalStorageState;
}

export interface AgentRunInput {
  url: string;
  goal: AgentGoal;
  proxyCountry?: string | null;
  cookies?: Cookie[];
  /** Local storage by origin to start the browser with (a profile's). */
  localStorage?: LocalStorageState;
  /** Read the browser's local storage before closing it (`AgentRunResult.localStorage`, to save a profile). */
  keepState?: boolean;
  /** Overrides config agent.* budgets. */
  budgets?: Partial<AgentBudgets>;
  /** Stops the browser, the model call in flight and the loop at once. */
  signal?: AbortSignal;
  /** Start on the browser driver (skip the plain-HTTP interaction path). */
  preferBrowser?: boolean;
  /**
   * Go on from this live page instead of opening `url` (a heal: the script replayed up to the step
   * that drifted). Borrowed: the caller closes it.
   */
  startOn?: { driver: Driver; session: InteractiveSession };
  /** Called after every recorded action (progress, persistence). */
  onStep?: (step: RecordedAction, index: number) => void | Promise<void>;
  /**
   * How an action's effect is waited for on a browser (see AgentPage.settled): `quiet`, the page's
   * own quiet wait (plugin API 1.1, the default where the driver has it), or `reads`, the earlier
   * network idle and repeated reads (1.0 drivers; the bench compares the two).
   */
  settle?: SettleMode;
  /**
   * Takes the closing of the run's browser page instead of runAgent waiting for it: the caller
   * records the result meanwhile and waits for it before its job ends (the promise never rejects).
   */
  deferClose?: (closing: Promise<void>) => void;
  /** The task's allowed_domains (see domains.ts); null or omitted: no policy beyond the SSRF guard. */
  allowedDomains?: string[] | null;
  /**
   * Secret parameters the model may type as `{{name}}` (secrets/values.ts): told by name only,
   * typed as their value, and redacted from every text the model sees.
   */
  secrets?: Secrets | null;
  /** The owner the run works for: a visit's pace is the owner's politeness setting (else the server's). */
  ownerId?: string;
}

export type SettleMode = 'quiet' | 'reads';
