// Running the real `gleaner` CLI in tests.
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';

export const CLI = new URL('../../packages/server/src/cli.ts', import.meta.url).pathname;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `gleaner <args>` to completion with the given environment (added to a clean copy). */
export function runCli(args: string[], env: Record<string, string | undefined>, timeoutMs = 60_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`gleaner ${args.join(' ')} timed out; stderr: ${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts a long-running `gleaner <args>` (serve, worker); the caller stops it. */
export function startCli(args: string[], env: Record<string, string | undefined>): ChildProcess & { output: () => string } {
  const child = spawn(process.execPath, [CLI, ...args], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return Object.assign(child, { output: () => out });
}

/** The parent's environment without Gleaner/DB variables, plus `env` (undefined deletes). */
function cleanEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('GLEANER_') || k === 'DATABASE_URL' || k.startsWith('OPENAI_') || k === 'OLLAMA_HOST') continue;
    base[k] = v;
  }
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete base[k];
    else base[k] = v;
  }
  return base;
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((r) => server.close(r));
  return port;
}

export async function waitForExit(child: ChildProcess, ms: number): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('process did not exit in time')), ms);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

export async function waitForHttp(url: string, ms: number, child?: { output: () => string; exitCode: number | null }): Promise<Response> {
  const end = Date.now() + ms;
  for (;;) {
    if (child && child.exitCode !== null) throw new Error(`process exited (${child.exitCode}) before ${url} answered:\n${child.output()}`);
    try {
      const res = await fetch(url);
      if (res.status === 200) return res;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > end) throw new Error(`${url} did not answer 200 within ${ms} ms${child ? `:\n${child.output()}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The environment of a `gleaner worker` child on a test's schemas, with fast job timings. */
export function workerEnv(schemas: { schema: string; jobsSchema: string }, databaseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    GLEANER_DB_SCHEMA: schemas.schema,
    GLEANER_JOBS_SCHEMA: schemas.jobsSchema,
    GLEANER_ALLOW_NETWORKS: '127.0.0.0/8',
    GLEANER_JOB_POLLING_SECONDS: '0.5',
    GLEANER_JOB_SUPERVISE_SECONDS: '1',
    GLEANER_LOG_LEVEL: 'info',
    ...extra,
  };
}
