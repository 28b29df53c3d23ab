/**
 * One-shot agent tasks (POST /v1/agent/extract, GET /v1/agent/extract/{id}, POST .../stop).
 *
 * A task row (kind `agent`) and its job are created in one transaction. The job runs the browsing
 * agent; every action is saved on the row as it happens (`steps`), so the status shows progress.
 * Stop marks the row `stopped` and sends a cancellation NOTIFY in one transaction: the worker running
 * it aborts the browser, the model call in flight and the loop at once, and since a task is only ever
 * finished while `pending` or `running`, a stopped task stays stopped and no callback follows.
 * A worker killed mid-task leaves the job to pg-boss, which retries it (a retry starts the agent
 * again) or fails the task once its retries are spent.
 */
import { checkStartDomain, normalizeAllowedDomains } from '../agent/domains.ts';
import { randomUUID } from 'node:crypto';
import { GleanerError, validationFailed, type ValidationIssue } from '../errors.ts';
import type { Owner } from '../auth/owners.ts';
import { defineJob } from '../jobs/job-kind.ts';
import { notifyCancel } from '../jobs/cancel.ts';
import { requireModel, type OperationContext } from '../context.ts';
import { checkHttpUrl, normalizeAttributeInput } from '../schemas/normalize.ts';
import type { Attribute, ExtractedRecord } from '../records/attributes.ts';
import { creditsFor, recordUsage } from '../usage.ts';
import { enqueueCallback } from '../callbacks/index.ts';
import type { Queryable } from '../store/db.ts';
import { createSsrfGuard, refuseBlockedUrls } from '../net/ssrf.ts';
import { runAgent } from '../agent/run.ts';
import { canBrowse } from '../agent/browse.ts';
import type { RecordedAction } from '../agent/types.ts';
import { checkCallbackUrl } from './extract-task.ts';
import { checkRequest } from '../schemas/validate.ts';
import { AGENT_EXTRACT_BODY, type AgentTaskRequest } from '../schemas/run-requests.ts';
import { checkBudgets, tokenAllowance } from '../cost/budgets.ts';
import { estimateAgentTask, type DryRunBody } from '../cost/estimate.ts';
import { archiveSourcePages, archiveStore, keepsSnapshots } from '../snapshots/archive.ts';
import { normalizeSecretsInput, secretsFrom, type SecretInput } from '../secrets/values.ts';
import { seal, secretsKey, unseal } from '../secrets/vault.ts';
import { checkProfile, loadProfile, profileField, saveProfile } from '../profiles/index.ts';
import { signInFromSteps } from '../profiles/sign-in.ts';
import { getOwnerSettings } from '../cost/settings.ts';
import { TrustLog, withProvenance, type GroundingPolicy, type GroundingWarning } from '../trust/provenance.ts';
import { isEmptyRecord } from '../records/attributes.ts';
import type { AgentBudgets, AgentRunResult } from '../agent/types.ts';
import type { TaskStatus } from '../schemas/statuses.ts';

export const AGENT_TASK_JOB = 'agent.task';

/** One line of the `steps` summary in a status body. */
export interface AgentStepSummary {
  action: string;
  /** What was acted on: `button "Load more"`, the URL navigated to, the text typed. */
  target?: string;
  value?: string | string[];
  url: string;
  ok: boolean;
  error?: string;
  records?: number;
  duration_ms: number;
  tokens: number;
}

export interface AgentTaskStatusBody {
  task_id: string;
  status: TaskStatus;
  /** Once completed: the records. */
  data?: ExtractedRecord[];
  message?: string;
  error?: string;
  steps?: AgentStepSummary[];
  /** Grounding policy flag or drop: the values the pages the model read do not support. */
  warnings?: GroundingWarning[];
}

interface AgentTaskRow {
  id: string;
  owner_id: string;
  status: AgentTaskStatusBody['status'];
  request: {
    url: string;
    prompt: string;
    attributes: Attribute[];
    source: string;
    allowedDomains?: string[];
    max_tokens?: number | null;
    max_credits?: number | null;
    /** Keep the pages extracted from in the snapshot archive (decided at submission). */
    snapshots?: boolean;
    /** Secret inputs, sealed (secrets/vault.ts): a list of SecretInput. */
    secrets?: string;
    profile?: string;
    saveProfile?: string;
    /** `provenance: true`: each record carries `_provenance` (text spans into what the model read). */
    provenance?: boolean;
    grounding?: GroundingPolicy | null;
  };
  data: ExtractedRecord[] | null;
  message: string | null;
  error: string | null;
  callback_url: string | null;
  steps: RecordedAction[] | null;
  warnings?: GroundingWarning[] | null;
}

function summarize(s: RecordedAction): AgentStepSummary {
  const out: AgentStepSummary = {
    action: s.action,
    url: s.urlAfter || s.urlBefore,
    ok: s.ok,
    duration_ms: s.durationMs,
    tokens: s.inputTokens + s.outputTokens,
  };
  if (s.target) out.target = `${s.target.role || s.target.tag || 'element'}${s.target.name ? ` "${s.target.name.slice(0, 80)}"` : ''}`;
  else if (s.url) out.target = s.url;
  else if (s.visit?.pattern) out.target = `links ${s.visit.pattern}`;
  if (s.value !== undefined) out.value = s.value;
  if (s.records !== undefined) out.records = s.records;
  if (s.error) out.error = s.error;
  return out;
}

export function agentStatusBody(row: Pick<AgentTaskRow, 'id' | 'status' | 'data' | 'message' | 'error' | 'steps' | 'warnings'>): AgentTaskStatusBody {
  const body: AgentTaskStatusBody = { task_id: row.id, status: row.status };
  if (row.status === 'completed') body.data = row.data ?? [];
  if (row.message) body.message = row.message;
  if (row.status === 'failed') body.error = row.error ?? 'the task failed';
  if (row.steps?.length) body.steps = row.steps.map(summarize);
  if (row.status === 'completed' && row.warnings) body.warnings = row.warnings;
  return body;
}

/** POST /v1/agent/extract: url and prompt required; attributes optional (the three shapes). */
export async function submitAgentTask(ctx: OperationContext, owner: Owner, input: AgentTaskRequest): Promise<AgentTaskStatusBody | DryRunBody> {
  const body = checkRequest<AgentTaskRequest>(AGENT_EXTRACT_BODY, input); // as the HTTP API checks it
  const issues: ValidationIssue[] = [];
  const url = checkHttpUrl(body.url, ['body', 'url'], issues);
  const prompt = typeof body.prompt === 'string' ? body.prompt.trim() : '';
  if (!prompt) issues.push({ loc: ['body', 'prompt'], msg: 'Field required', type: 'missing' });
  const attributes = normalizeAttributeInput(body.attributes, issues);
  const callbackUrl = checkCallbackUrl(body.callback_url, issues);
  const allowedDomains = normalizeAllowedDomains(body.allowed_domains, ['body', 'allowed_domains'], issues);
  checkStartDomain(url, allowedDomains, issues);
  const secrets = normalizeSecretsInput(body.secrets, ['body', 'secrets'], issues);
  const profile = profileField(body.profile, ['body', 'profile'], issues);
  const saveProfile = profileField(body.save_profile, ['body', 'save_profile'], issues);
  if (body.provenance === true && attributes.some((a) => a.name === '_provenance'))
    issues.push({
      loc: ['body', 'attributes'],
      msg: 'an attribute named "_provenance" cannot be used with provenance: true (the key carries the provenance)',
      type: 'value_error',
    });
  if (issues.length) throw validationFailed(issues);
  await checkProfile(ctx, owner.id, profile);
  if (saveProfile) secretsKey(ctx.config, 'profiles');
  if (callbackUrl) createSsrfGuard({ allowNetworks: ctx.config.network.allowNetworks }).checkUrl(callbackUrl);
  // Refused now rather than after a queue wait: a blocked start URL, or nothing could run the task.
  await refuseBlockedUrls(ctx.config.network.allowNetworks, [url!]);
  requireModel(ctx);
  if (!canBrowse(ctx.drivers))
    throw new GleanerError('DRIVER_UNAVAILABLE', 'the agent needs a driver that can interact with pages (a browser driver); none is configured');
  const budget = { maxTokens: body.max_tokens ?? null, maxCredits: body.max_credits ?? null };
  if (body.dry_run === true) {
    const maxTokens = Math.min(ctx.config.agent.maxTokens, budget.maxTokens ?? Infinity);
    const estimate = await estimateAgentTask(ctx, { url: url!, prompt, attributes, maxTokens });
    return { dry_run: true, estimate, message: 'Dry run: nothing was queued or charged.' };
  }
  // A used-up budget refuses now; within one, the agent's token budget is cut to what is left (at run time).
  await checkBudgets(ctx, owner.id, budget, { credits: 0, tokens: 0 }, 'an agent task');
  const id = randomUUID();
  const request = {
    url,
    prompt,
    attributes,
    source: typeof body.source === 'string' && body.source ? body.source : 'api',
    ...(allowedDomains ? { allowedDomains } : {}),
    max_tokens: budget.maxTokens,
    max_credits: budget.maxCredits,
    snapshots: await keepsSnapshots(ctx.db, owner.id, body.snapshots, 'tasks'),
    // Sealed before the row is written: a secret never reaches a column in plain text.
    ...(secrets.length ? { secrets: seal(ctx.config, secrets, 'secret parameters') } : {}),
    ...(profile ? { profile } : {}),
    ...(saveProfile ? { saveProfile } : {}),
    ...(body.provenance === true ? { provenance: true } : {}),
    ...(body.grounding ? { grounding: body.grounding } : {}),
  };
  await ctx.db.tx(async (tx) => {
    await tx.query(`INSERT INTO tasks (id, owner_id, kind, status, request, callback_url) VALUES ($1, $2, 'agent', 'pending', $3, $4)`, [
      id,
      owner.id,
      request,
      callbackUrl,
    ]);
    await ctx.jobs.send(AGENT_TASK_JOB, { taskId: id }, { db: tx });
  });
  ctx.logger.info({ owner: owner.name, taskId: id, url }, 'agent task accepted');
  return { task_id: id, status: 'pending' };
}

export async function getAgentTask(ctx: OperationContext, owner: Owner, id: string): Promise<AgentTaskStatusBody> {
  const { rows } = await ctx.db.query<AgentTaskRow>(
    `SELECT id, status, data, message, error, steps, warnings FROM tasks WHERE id = $1 AND owner_id = $2 AND kind = 'agent'`,
    [id, owner.id],
  );
  if (!rows[0]) throw new GleanerError('NOT_FOUND', `agent task ${id} not found`);
  return agentStatusBody(rows[0]);
}

/** POST /v1/agent/extract/{id}/stop: `stopped` for a pending or running task, `not_running` otherwise. */
export async function stopAgentTask(ctx: OperationContext, owner: Owner, id: string): Promise<{ task_id: string; status: 'stopped' | 'not_running' }> {
  return ctx.db.tx(async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      `UPDATE tasks SET status = 'stopped', stopped_at = now(), finished_at = now(), message = 'Stopped on request.'
       WHERE id = $1 AND owner_id = $2 AND kind = 'agent' AND status IN ('pending', 'running') RETURNING id`,
      [id, owner.id],
    );
    if (rows[0]) {
      await notifyCancel(tx, ctx.config.database.schema, `task:${id}`);
      ctx.logger.info({ owner: owner.name, taskId: id }, 'agent task stopped');
      return { task_id: id, status: 'stopped' as const };
    }
    const found = await tx.query(`SELECT 1 FROM tasks WHERE id = $1 AND owner_id = $2 AND kind = 'agent'`, [id, owner.id]);
    if (!found.rows[0]) throw new GleanerError('NOT_FOUND', `agent task ${id} not found`);
    return { task_id: id, status: 'not_running' as const };
  });
}

async function finish(ctx: OperationContext, tx: Queryable, row: AgentTaskRow, update: string, values: unknown[]): Promise<boolean> {
  const { rows } = await tx.query<AgentTaskRow>(
    `UPDATE tasks SET ${update}, finished_at = now() WHERE id = $1 AND status IN ('pending', 'running') RETURNING id, status, data, message, error, steps, warnings`,
    [row.id, ...values],
  );
  if (!rows[0]) return false;
  if (row.callback_url)
    await enqueueCallback(tx, ctx.jobs, { ownerId: row.owner_id, url: row.callback_url, subject: `task:${row.id}`, body: agentStatusBody(rows[0]) });
  return true;
}

/** The agent's token budget: agent.maxTokens, cut to what the request and the owner's budgets allow (named in the message when it runs out). */
function tokenBudget(configured: number, allowance: number | null, requested: number | null | undefined): Partial<AgentBudgets> | undefined {
  if (allowance === null || allowance >= configured) return undefined;
  const by = allowance === requested ? "the request's max_tokens" : "what the request's max_tokens and max_credits and your budgets leave; GET /v1/settings";
  return { maxTokens: allowance, maxTokensBy: by };
}

/**
 * Provenance and the grounding policy of a finished agent run: each extraction's records checked
 * against the page text its model read (the request's `grounding`, else the owner's setting). Null
 * when neither provenance nor a flag/drop policy asks for it. `drop` empties unsupported values in place.
 */
async function checkAgentRecords(c: OperationContext, row: AgentTaskRow, result: AgentRunResult): Promise<TrustLog | null> {
  const policy = row.request.grounding ?? (await getOwnerSettings(c.db, row.owner_id)).grounding_policy ?? 'keep';
  if (!row.request.provenance && policy === 'keep') return null;
  const trust = new TrustLog(policy);
  for (const x of result.extractions) if (x.reduced) trust.modelPage({ url: x.url, html: x.html }, x.reduced, x.records, row.request.attributes ?? []);
  // A record `drop` emptied entirely is no record.
  if (policy === 'drop') result.records = result.records.filter((r) => !isEmptyRecord(r));
  return trust;
}

export function agentTaskJob(ctx: () => OperationContext) {
  return defineJob<{ taskId: string }>({
    name: AGENT_TASK_JOB,
    payloadSchema: { type: 'object', required: ['taskId'], properties: { taskId: { type: 'string' } } },
    // An attempt may take the agent's whole wall time; pg-boss expires it a minute after that.
    policy: { retryLimit: 1, retryDelaySeconds: 5, expireInSeconds: 900 },
    handler: async ({ taskId }, job) => {
      const c = ctx();
      const { rows } = await c.db.query<AgentTaskRow>('SELECT * FROM tasks WHERE id = $1', [taskId]);
      const row = rows[0];
      if (!row || !['pending', 'running'].includes(row.status)) return; // finished or stopped already: redelivery
      await c.db.query(
        `UPDATE tasks SET status = 'running', started_at = coalesce(started_at, now()), steps = NULL WHERE id = $1 AND status IN ('pending', 'running')`,
        [taskId],
      );
      const isStopped = async () => (await c.db.query(`SELECT 1 FROM tasks WHERE id = $1 AND status = 'stopped'`, [taskId])).rows.length > 0;
      const watch = await c.cancels.watch(`task:${taskId}`, { parent: job.signal, isCancelled: isStopped });
      const steps: RecordedAction[] = [];
      let closing: Promise<void> | undefined;
      try {
        const allowance = await tokenAllowance(c, row.owner_id, { maxTokens: row.request.max_tokens, maxCredits: row.request.max_credits });
        const secretInputs = row.request.secrets ? unseal<SecretInput[]>(c.config, row.request.secrets, 'secret parameters') : null;
        const secrets = secretInputs ? secretsFrom(secretInputs) : null;
        const profile = row.request.profile ? await loadProfile(c, row.owner_id, row.request.profile) : null;
        const result = await runAgent(c, {
          secrets,
          cookies: profile?.cookies,
          localStorage: profile?.localStorage,
          keepState: Boolean(row.request.saveProfile),
          // The browser page closes while the result is recorded; the job ends after both.
          deferClose: (p) => (closing = p),
          url: row.request.url,
          budgets: tokenBudget(c.config.agent.maxTokens, allowance, row.request.max_tokens),
          goal: { prompt: row.request.prompt, attributes: row.request.attributes ?? [] },
          allowedDomains: row.request.allowedDomains ?? null,
          ownerId: row.owner_id,
          signal: watch.signal,
          onStep: async (step) => {
            steps.push(step);
            await c.db.query(`UPDATE tasks SET steps = $2 WHERE id = $1 AND status = 'running'`, [taskId, JSON.stringify(steps)]);
          },
        });
        if (row.request.snapshots) {
          // The pages the records came from (each page the agent extracted from, in order, then its visits' detail pages).
          const pages = [
            ...result.extractions.map((e) => ({ url: e.url, driver: e.driver, html: e.html })),
            ...result.visits.flatMap((v) => v.pages.flatMap((p) => (p.document ? [{ url: p.url, driver: p.driver ?? result.driver, ...p.document }] : []))),
          ];
          await archiveSourcePages(archiveStore(c), row.owner_id, 'agent', taskId, pages);
        }
        const visitModelPages = result.visits.reduce((n, v) => n + v.pages.filter((p) => p.by === 'model').length, 0);
        const credits = creditsFor(c.config, { modelPages: result.extractions.length + visitModelPages, usage: result.usage });
        const trust = await checkAgentRecords(c, row, result);
        const usage = { ...result.usage, steps: result.stepsUsed, outcome: result.outcome, driver: result.driver, model_ms: result.modelMs };
        const pages = new Set(result.steps.map((s) => s.urlAfter)).size;
        await c.db.tx(async (tx) => {
          // save_profile: the browser state the agent ended with (signed in), whatever records it found.
          if (row.request.saveProfile && (result.cookies.length || Object.keys(result.localStorage ?? {}).length) && result.outcome === 'finished')
            await saveProfile(
              c,
              tx,
              row.owner_id,
              row.request.saveProfile,
              {
                cookies: result.cookies,
                localStorage: result.localStorage ?? {},
                // Its sign-in, to replay when the session is over; a task that started on this
                // profile signed in already and keeps the profile's own.
                signIn:
                  signInFromSteps(row.request.url, result.steps, secretInputs ?? []) ??
                  (row.request.profile === row.request.saveProfile ? (profile?.signIn ?? null) : null),
              },
              { source: 'agent_task' },
            );
          if (result.records.length === 0 && result.outcome !== 'finished') {
            await finish(c, tx, row, `status = 'failed', error = $2, error_code = $3, steps = $4, usage = $5, driver = $6`, [
              result.message ?? 'the agent stopped before finding any record',
              result.outcome === 'loop' ? 'AGENT_LOOP' : 'AGENT_BUDGET_EXHAUSTED',
              JSON.stringify(result.steps),
              usage,
              result.driver,
            ]);
          } else {
            await finish(
              c,
              tx,
              row,
              `status = 'completed', data = $2, message = $3, steps = $4, usage = $5, driver = $6, credits_charged = $7, warnings = $8`,
              [
                JSON.stringify(trust && row.request.provenance ? withProvenance(result.records, trust) : result.records),
                result.message ?? null,
                JSON.stringify(result.steps),
                usage,
                result.driver,
                credits,
                trust && trust.policy !== 'keep' ? JSON.stringify(trust.warnings(result.records)) : null,
              ],
            );
          }
          const unsupported = trust?.unsupported(result.records) ?? 0;
          await recordUsage(tx, {
            ownerId: row.owner_id,
            operation: 'agent_extract',
            subject: `task:${taskId}`,
            pages,
            usage: result.usage,
            credits,
            unsupported,
          });
        });
        job.logger.info(
          { taskId, outcome: result.outcome, records: result.records.length, steps: result.stepsUsed, driver: result.driver },
          'agent task ended',
        );
      } catch (err) {
        if (await isStopped()) {
          // Stopped: the row says so already; keep what the agent did for the record.
          await c.db.query(`UPDATE tasks SET steps = $2 WHERE id = $1`, [taskId, JSON.stringify(steps)]);
          job.logger.info({ taskId, steps: steps.length }, 'agent task stopped while running');
          return;
        }
        throw err;
      } finally {
        watch.release();
        await closing;
      }
    },
    onFailure: async ({ taskId }, error) => {
      const c = ctx();
      const { rows } = await c.db.query<AgentTaskRow>('SELECT * FROM tasks WHERE id = $1', [taskId]);
      if (!rows[0]) return;
      await c.db.tx((tx) => finish(c, tx, rows[0], `status = 'failed', error = $2, error_code = $3`, [error.message, error.code]));
    },
  });
}
