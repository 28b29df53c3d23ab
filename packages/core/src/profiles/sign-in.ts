/**
 * The sign-in a one-shot agent task performed, kept (sealed) with the profile it saved
 * (`save_profile`), so that the profile can sign in again without the model when its session is
 * over: the task's browsing actions as a script (extractions and visits left out), and the secret
 * parameters the task was given, which the replay types through their `{{name}}` placeholders.
 */
import { actionStep } from '../agent/script-build.ts';
import { SCRIPT_FORMAT, validateScript, type AgentScript, type ScriptStep } from '../agent/script.ts';
import type { RecordedAction } from '../agent/types.ts';
import type { SecretInput } from '../secrets/values.ts';

export interface ProfileSignIn {
  /** Where the task started. */
  url: string;
  /** Its actions: goto the start, then what it clicked, typed, chose and scrolled. */
  script: AgentScript;
  /** The task's secret parameters (sealed with the profile, never shown). */
  secrets: SecretInput[];
}

/**
 * The sign-in of a task that started at `url` and took `steps`; null when it typed nothing (a task
 * that started on a profile already signed in has no sign-in to repeat).
 */
export function signInFromSteps(url: string, steps: readonly RecordedAction[], secrets: readonly SecretInput[]): ProfileSignIn | null {
  const out: ScriptStep[] = [{ action: 'goto', url }];
  for (const a of steps) {
    if (!a.ok) continue; // a failed action changed nothing to repeat
    const step = actionStep(a, (u) => u, {});
    if (step) out.push(step);
  }
  if (!out.some((s) => s.action === 'type')) return null;
  const onHttp = steps.every((a) => !a.ok || a.driver === 'http');
  const script = validateScript({ format: SCRIPT_FORMAT, driver: onHttp ? 'http' : 'browser', parameters: {}, steps: out }, { signIn: true });
  return { url, script, secrets: [...secrets] };
}
