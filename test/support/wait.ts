/** Polls `fn` until it returns something other than undefined/false, or fails after `ms`. */
export async function waitFor<T>(fn: () => T | undefined | false | Promise<T | undefined | false>, ms: number, what: string, everyMs = 50): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined && v !== false) return v as T;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
