import type { RouteContext } from './route.ts';

/**
 * Aborted when the client goes away before its answer is sent, so a long extraction stops spending
 * model calls and a synchronous run stops waiting (the run itself goes on).
 */
export function clientSignal(ctx: RouteContext): AbortSignal {
  const controller = new AbortController();
  ctx.res.on('close', () => {
    if (!ctx.res.writableFinished) controller.abort(new Error('client closed the connection'));
  });
  return controller.signal;
}
