import type { ValidationIssue } from '@gleaner/core';

/** Deeper than any request form needs; keeps recursive code (ajv, JSON storage) far from the stack limit. */
export const MAX_INPUT_DEPTH = 32;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function stringProblem(s: string): { msg: string; type: string } | null {
  // Postgres refuses both in text and jsonb (22021, 22P02): reject them here, with a location.
  if (s.includes('\u0000')) return { msg: 'String must not contain NUL characters (\\u0000)', type: 'string_nul' };
  if (LONE_SURROGATE.test(s)) return { msg: 'String must be valid Unicode: it contains a lone UTF-16 surrogate', type: 'string_unicode' };
  return null;
}

/**
 * Problems no schema states but every stored field must respect: NUL characters and lone
 * surrogates in any string or key, and nesting deeper than MAX_INPUT_DEPTH. Iterative, so a
 * hostile 100,000-level document cannot exhaust the stack here either.
 */
export function inputIssues(value: unknown, root: 'body' | 'path' | 'query'): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const stack: Array<{ v: unknown; loc: Array<string | number> }> = [{ v: value, loc: [root] }];
  while (stack.length && issues.length < 20) {
    const { v, loc } = stack.pop()!;
    if (typeof v === 'string') {
      const p = stringProblem(v);
      if (p) issues.push({ loc, ...p });
      continue;
    }
    if (!v || typeof v !== 'object') continue;
    if (loc.length - 1 >= MAX_INPUT_DEPTH) {
      issues.push({ loc, msg: `Input is nested too deeply: at most ${MAX_INPUT_DEPTH} levels of objects and lists`, type: 'too_deep' });
      continue;
    }
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], loc: [...loc, i] });
      continue;
    }
    for (const [k, child] of Object.entries(v as Record<string, unknown>)) {
      const p = stringProblem(k);
      if (p) issues.push({ loc: [...loc, k], msg: `Key ${p.msg.replace(/^String/, '').trim()}`, type: p.type });
      else stack.push({ v: child, loc: [...loc, k] });
    }
  }
  return issues;
}
