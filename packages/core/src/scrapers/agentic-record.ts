/**
 * Recording an agentic scraper's script, as every agentic build and heal does: the agent browses
 * from the start URL with the prompt (and the parameter values to use), its trajectory becomes a
 * script (agent/script-build.ts), and the script is replayed once without the model; only a replay
 * that reproduces the agent's records is accepted. Shared by the build job and the heal so both
 * validate the same way. A heal goes on from a step of the stored script: the steps before it are
 * replayed and kept, the agent starts on that live page, and the replay must also reproduce the
 * kept steps' records.
 */
import { mergeRecords, type Attribute, type ExtractedRecord } from '../records/attributes.ts';
import type { OperationContext } from '../context.ts';
import { addUsage, emptyUsage, type ModelUsage } from '../usage.ts';
import { replayScript, ScriptReplay } from '../agent/replay.ts';
import { runAgent } from '../agent/run.ts';
import { buildScript, replayDifference } from '../agent/script-build.ts';
import { describeValues } from '../agent/script-parameters.ts';
import type { AgentScript } from '../agent/script.ts';
import type { Cookie } from '../net/cookies.ts';
import type { LocalStorageState } from '../plugins/driver.ts';
import { splitSecrets } from '../secrets/values.ts';

export interface RecordInput {
  url: string;
  prompt: string;
  attributes: Attribute[];
  /** The parameter values this recording uses (the build's sample values, or a run's). */
  values: Record<string, unknown>;
  signal?: AbortSignal;
  /** Go on from this step of a stored script (a heal): the steps before it are replayed and kept. */
  from?: { script: AgentScript; step: number };
  /** The build's allowed_domains (agent/domains.ts). */
  allowedDomains?: string[] | null;
  /** The cookies the agent and the replay start with (a profile's). */
  cookies?: Cookie[];
  /** The local storage by origin they start with (a profile's). */
  localStorage?: LocalStorageState;
  /** Return the replay's cookies at its end (to save a profile). */
  keepState?: boolean;
  /** A build's budget: the agent's model tokens at most, and what set them (its message names it). */
  tokenBudget?: { maxTokens: number; by: string };
}

/** What the agent is told when it goes on from a heal's kept steps. */
const RESUMED =
  'The page shown is where a recorded run of this task stopped working, after its first steps: go on from this page (do not start over), and extract the records this task asks for from here on.';

interface KeptSteps {
  replay: ScriptReplay;
  steps: AgentScript['steps'];
  driver: AgentScript['driver'];
}

/**
 * Replays the stored script up to `from.step` and leaves its page open; null when those steps
 * drift too (the page changed before that step as well: the heal records from the start).
 */
async function replayKept(ctx: OperationContext, input: RecordInput, from: NonNullable<RecordInput['from']>): Promise<KeptSteps | null> {
  const steps = from.script.steps.slice(0, Math.max(1, from.step));
  const replay = await ScriptReplay.open(ctx, {
    script: { ...from.script, steps },
    url: input.url,
    parameters: input.values,
    attributes: input.attributes,
    signal: input.signal,
    cookies: input.cookies,
    localStorage: input.localStorage,
  });
  try {
    const drift = await replay.run();
    if (!drift) return { replay, steps, driver: from.script.driver };
    ctx.logger.info({ url: input.url, drift: drift.message }, 'agentic heal: the kept steps drift too; recording from the start');
  } catch (err) {
    await replay.close();
    throw err;
  }
  await replay.close();
  return null;
}

export type RecordResult =
  | {
      accepted: true;
      script: AgentScript;
      /** What the replay produced (the scraper's sample_data). */
      records: ExtractedRecord[];
      /** The driver the replay ran on. */
      driver: string;
      /** keepState: the replay's cookies at its end. */
      cookies?: Cookie[];
      /** keepState: the replay's local storage at its end. */
      localStorage?: LocalStorageState;
      agentRecords: number;
      steps: number;
      usage: ModelUsage;
    }
  /** `budget`: the agent stopped at the build's token budget (the build stops there too). */
  | { accepted: false; reason: string; usage: ModelUsage; budget?: true };

/** Agent -> script -> replay -> compare. Throws model, driver and abort errors; returns a rejection. */
export async function recordScript(ctx: OperationContext, input: RecordInput): Promise<RecordResult> {
  const usage = emptyUsage();
  // Secret parameters (secrets/values.ts) reach the agent as placeholders only, and never the script's values.
  const { plain, secrets } = splitSecrets(input.values);
  const values = describeValues(plain);
  const kept = input.from ? await replayKept(ctx, input, input.from) : null;
  const keptRecords = kept?.replay.records ?? [];
  let run: Awaited<ReturnType<typeof runAgent>>;
  try {
    run = await runAgent(ctx, {
      url: input.url,
      goal: { prompt: [input.prompt, values, kept ? RESUMED : ''].filter(Boolean).join('\n\n'), attributes: input.attributes },
      signal: input.signal,
      startOn: kept ? { driver: kept.replay.driver, session: kept.replay.session } : undefined,
      allowedDomains: input.allowedDomains,
      secrets,
      cookies: input.cookies,
      localStorage: input.localStorage,
      ...(input.tokenBudget ? { budgets: { maxTokens: input.tokenBudget.maxTokens, maxTokensBy: input.tokenBudget.by } } : {}),
    });
  } finally {
    await kept?.replay.close();
  }
  addUsage(usage, run.usage);
  if (input.tokenBudget && run.outcome === 'budget' && run.usage.inputTokens + run.usage.outputTokens >= input.tokenBudget.maxTokens) {
    const found = run.records.length;
    return {
      accepted: false,
      budget: true,
      reason: `${run.message ?? 'the agent ran out of model tokens'} The agent had found ${found} record${found === 1 ? '' : 's'}; no script was saved.`,
      usage,
    };
  }
  if (!run.records.length) {
    return {
      accepted: false,
      reason: `the agent found no records starting from ${input.url}${run.message ? ` (${run.message})` : ''}, so there is nothing for a script to reproduce`,
      usage,
    };
  }
  const built = await buildScript(ctx, {
    run,
    url: input.url,
    values: plain,
    attributes: input.attributes,
    prompt: input.prompt,
    signal: input.signal,
    kept: kept ? { steps: kept.steps, driver: kept.driver } : undefined,
  });
  addUsage(usage, built.usage);
  if (!built.ok) return { accepted: false, reason: built.reason, usage };

  const replay = await replayScript(ctx, {
    script: built.script,
    url: input.url,
    parameters: input.values,
    attributes: input.attributes,
    signal: input.signal,
    cookies: input.cookies,
    localStorage: input.localStorage,
    keepState: input.keepState,
  });
  if (replay.drift) return { accepted: false, reason: `the recorded script did not replay without the model: ${replay.drift.message}`, usage };
  const diff = replayDifference(replay.records, kept ? mergeRecords([keptRecords, run.records]) : run.records, input.url);
  if (diff) return { accepted: false, reason: `the recorded script did not reproduce the agent's records: ${diff}`, usage };
  return {
    accepted: true,
    script: built.script,
    records: replay.records,
    driver: replay.driver,
    ...(replay.cookies ? { cookies: replay.cookies } : {}),
    ...(replay.localStorage ? { localStorage: replay.localStorage } : {}),
    agentRecords: run.records.length,
    steps: run.steps.length,
    usage,
  };
}
