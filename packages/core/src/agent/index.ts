// The browsing agent (observe -> decide -> act), its recorded actions and stable targets.
export { runAgent, agentBudgets } from './run.ts';
export { stableTarget, resolveTarget } from './targets.ts';
export { AGENT_TOOLS, checkCall, type AgentAction } from './tools.ts';
export { canBrowse } from './browse.ts';
export type {
  AgentActionName,
  AgentBudgets,
  AgentExtraction,
  AgentGoal,
  AgentOutcome,
  AgentRunInput,
  AgentRunResult,
  RecordedAction,
  SettleMode,
  StableTarget,
} from './types.ts';
