/**
 * Recording an agentic scraper's script, as every agentic build and heal does: the agent browses
 * from the start URL with the prompt (and the parameter values to use), its trajectory becomes a
 * script (agent/script-build.ts), and the script is replayed once without the model; only a replay
 * that reproduces the agent's records is accepted. Shared by the build job and the heal so both
 * validate the same way.
 */
import type { ExtractedRecord } from '../records/attributes.ts';
import type { OperationContext } from '../context.ts';
import { addUsage, emptyUsage, type ModelUsage } from '../usage.ts';
import { replayScript } from '../agent/replay.ts';
import { runAgent } from '../agent/run.ts';
import { buildScript, replayDifference } from '../agent/script-build.ts';
import { describeValues } from '../agent/script-parameters.ts';
import type { AgentScript } from '../agent/script.ts';
import type { Attribute } from '../records/attributes.ts';

export interface RecordInput {
  url: string;
  prompt: string;
  attributes: Attribute[];
  /** The parameter values this recording uses (the build's sample values, or a run's). */
  values: Record<string, unknown>;
  signal?: AbortSignal;
}

export type RecordResult =
  | {
      accepted: true;
      script: AgentScript;
      /** What the replay produced (the scraper's sample_data). */
      records: ExtractedRecord[];
      /** The driver the replay ran on. */
      driver: string;
      agentRecords: number;
      steps: number;
      usage: ModelUsage;
    }
  | { accepted: false; reason: string; usage: ModelUsage };

/** Agent -> script -> replay -> compare. Throws model, driver and abort errors; returns a rejection. */
export async function recordScript(ctx: OperationContext, input: RecordInput): Promise<RecordResult> {
  const usage = emptyUsage();
  const values = describeValues(input.values);
  const run = await runAgent(ctx, {
    url: input.url,
    goal: { prompt: values ? `${input.prompt}\n\n${values}` : input.prompt, attributes: input.attributes },
    signal: input.signal,
  });
  addUsage(usage, run.usage);
  if (!run.records.length) {
    return {
      accepted: false,
      reason: `the agent found no records starting from ${input.url}${run.message ? ` (${run.message})` : ''}, so there is nothing for a script to reproduce`,
      usage,
    };
  }
  const built = await buildScript(ctx, { run, url: input.url, values: input.values, attributes: input.attributes, prompt: input.prompt, signal: input.signal });
  addUsage(usage, built.usage);
  if (!built.ok) return { accepted: false, reason: built.reason, usage };

  const replay = await replayScript(ctx, {
    script: built.script,
    url: input.url,
    parameters: input.values,
    attributes: input.attributes,
    signal: input.signal,
  });
  if (replay.drift) return { accepted: false, reason: `the recorded script did not replay without the model: ${replay.drift.message}`, usage };
  const diff = replayDifference(replay.records, run.records, input.url);
  if (diff) return { accepted: false, reason: `the recorded script did not reproduce the agent's records: ${diff}`, usage };
  return {
    accepted: true,
    script: built.script,
    records: replay.records,
    driver: replay.driver,
    agentRecords: run.records.length,
    steps: run.steps.length,
    usage,
  };
}
