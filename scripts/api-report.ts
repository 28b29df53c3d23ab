// The API report: every export of @gleaner/core and @gleaner/core/plugin with its type signature,
// sorted by name, written to packages/core/api/*.api.md and checked in. A change to the public
// surface (above all the plugin surface, versioned by PLUGIN_API_VERSION) then shows in review as a
// diff of these files.
//
//   node scripts/api-report.ts           rewrite the reports (`make api-report`)
//   node scripts/api-report.ts --check   fail with a diff when they are out of date (`make lint`)
//
// The signatures are the compiler's: tsc emits core's declarations (.d.ts, as an installed package
// has them) into a temporary directory, and each export of an entry point is followed through its
// re-exports and imports to its declaration, printed without comments.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const REPORTS = [
  { name: '@gleaner/core', entry: 'index.d.ts', out: 'packages/core/api/core.api.md' },
  { name: '@gleaner/core/plugin', entry: 'plugin.d.ts', out: 'packages/core/api/plugin.api.md' },
];

/** Top-level statements of a declaration file, comments dropped. */
export function statements(src: string): string[] {
  const out: string[] = [];
  let cur = '';
  let depth = 0;
  let i = 0;
  const blockStatement = () => /^(export\s+)?(declare\s+)?(abstract\s+)?(interface|class|enum|namespace|module|function)\b/.test(cur.trim());
  const end = () => {
    if (cur.trim()) out.push(cur.trim());
    cur = '';
  };
  while (i < src.length) {
    const c = src[i];
    const two = src.slice(i, i + 2);
    if (two === '//') {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    if (two === '/*') {
      const close = src.indexOf('*/', i + 2);
      i = close < 0 ? src.length : close + 2;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') {
      let j = i + 1;
      while (j < src.length && src[j] !== c) j += src[j] === '\\' ? 2 : 1;
      cur += src.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    cur += c;
    i++;
    if (c === '{' || c === '(' || c === '[') depth++;
    else if (c === '}' || c === ')' || c === ']') {
      depth--;
      if (depth === 0 && c === '}' && blockStatement() && !/^\s*[;|&=]/.test(src.slice(i))) end();
    } else if (c === ';' && depth === 0) end();
  }
  end();
  return out;
}

interface Module {
  /** Local declarations by name (a name may have several: overloads, merged interfaces). */
  decls: Map<string, string[]>;
  /** Exported name -> where it comes from: a local name, or a name of another module. */
  exports: Map<string, { local?: string; from?: string; name?: string; typeOnly: boolean }>;
  imports: Map<string, { from: string; name: string }>;
  star: string[];
}

const DECL = /^(?:export\s+)?(?:declare\s+)?(?:abstract\s+)?(?:function|const|let|var|class|interface|type|enum|namespace)\s+([A-Za-z_$][\w$]*)/;

function specifiers(list: string): Array<{ name: string; as: string; typeOnly: boolean }> {
  return list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const typeOnly = /^type\s/.test(s);
      const [name, as] = s.replace(/^type\s+/, '').split(/\s+as\s+/);
      return { name, as: as ?? name, typeOnly };
    });
}

const modules = new Map<string, Module>();
function load(file: string): Module {
  const known = modules.get(file);
  if (known) return known;
  const mod: Module = { decls: new Map(), exports: new Map(), imports: new Map(), star: [] };
  modules.set(file, mod);
  const target = (spec: string) => {
    const base = resolve(dirname(file), spec).replace(/\.(ts|js)$/, '');
    return existsSync(`${base}.d.ts`) ? `${base}.d.ts` : join(base, 'index.d.ts');
  };
  for (const st of statements(readFileSync(file, 'utf8'))) {
    let m: RegExpMatchArray | null;
    if ((m = st.match(/^export\s+(type\s+)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/))) {
      for (const s of specifiers(m[2])) mod.exports.set(s.as, { from: target(m[3]), name: s.name, typeOnly: Boolean(m[1]) || s.typeOnly });
    } else if ((m = st.match(/^export\s+\*\s+from\s*['"]([^'"]+)['"]/))) {
      mod.star.push(target(m[1]));
    } else if ((m = st.match(/^export\s+(type\s+)?\{([^}]*)\}\s*;?$/))) {
      for (const s of specifiers(m[2])) mod.exports.set(s.as, { local: s.name, typeOnly: Boolean(m[1]) || s.typeOnly });
    } else if ((m = st.match(/^import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/))) {
      for (const s of specifiers(m[1])) mod.imports.set(s.as, { from: target(m[2]), name: s.name });
    } else if ((m = st.match(DECL))) {
      const text = st.replace(/^export\s+/, '').replace(/^declare\s+/, '');
      mod.decls.set(m[1], [...(mod.decls.get(m[1]) ?? []), text]);
      if (/^export\s/.test(st)) mod.exports.set(m[1], { local: m[1], typeOnly: false });
    }
  }
  return mod;
}

/** The declarations behind a module's export. */
function follow(file: string, name: string, seen = new Set<string>()): { decls: string[]; original: string } | null {
  const key = `${file}#${name}`;
  if (seen.has(key)) return null;
  seen.add(key);
  const mod = load(file);
  const exp = mod.exports.get(name);
  if (exp?.from) return follow(exp.from, exp.name!, seen);
  if (exp?.local) {
    const decls = mod.decls.get(exp.local);
    if (decls) return { decls, original: exp.local };
    const imp = mod.imports.get(exp.local);
    if (imp) return follow(imp.from, imp.name, seen);
    return null;
  }
  for (const star of mod.star) {
    const found = follow(star, name, seen);
    if (found) return found;
  }
  return null;
}

function report(dir: string, r: (typeof REPORTS)[number]): string {
  const entry = join(dir, r.entry);
  const mod = load(entry);
  const names = [...mod.exports.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (mod.star.length) throw new Error(`${r.entry}: 'export *' is not supported by the report; list the names`);
  const blocks = names.map((name) => {
    const found = follow(entry, name);
    if (!found) throw new Error(`${r.entry}: cannot find the declaration of ${name}`);
    // A value (class, function, constant) exported with `export type` is a type only to its users.
    const value = found.decls.some((d) => /^(abstract\s+)?(class|function|const|let|var|enum)\s/.test(d));
    const lines = value && mod.exports.get(name)!.typeOnly ? ['// type-only export'] : [];
    // Inline import("...") paths name emitted files, not the API: the type's name is enough. The
    // blank lines are where comments were.
    lines.push(
      ...found.decls.map((d) =>
        d
          .replace(/import\((["'])[^"']+\1\)\./g, '')
          .split('\n')
          .filter((l) => l.trim())
          .join('\n'),
      ),
    );
    if (found.original !== name) lines.push(`export { ${found.original} as ${name} };`);
    return lines.join('\n');
  });
  return [
    `# API report: \`${r.name}\``,
    '',
    'Every export of the entry point with its signature (from the emitted declarations), sorted by name.',
    'Written by `make api-report` (`node scripts/api-report.ts`) and checked by `make lint`: do not edit',
    'it by hand. A change here is a change to the public surface; for `@gleaner/core/plugin` it is decided',
    'together with `PLUGIN_API_VERSION` (docs/plugins.md).',
    '',
    `${names.length} exports.`,
    '',
    '```ts',
    blocks.join('\n\n'),
    '```',
    '',
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const check = process.argv.includes('--check');
  const dir = mkdtempSync(join(tmpdir(), 'gleaner-api-'));
  let stale = 0;
  try {
    const tsc = join(root, 'node_modules/.bin/tsc');
    const flags = ['--emitDeclarationOnly', '--declarationMap', 'false', '--sourceMap', 'false', '--inlineSources', 'false', '--outDir', dir];
    execFileSync(tsc, ['-p', join(root, 'packages/core/tsconfig.build.json'), ...flags], { stdio: 'inherit' });
    for (const r of REPORTS) {
      const text = report(dir, r);
      const path = join(root, r.out);
      const old = existsSync(path) ? readFileSync(path, 'utf8') : '';
      if (old === text) continue;
      if (!check) {
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, text);
        console.log(`api-report: wrote ${r.out}`);
        continue;
      }
      stale++;
      const fresh = join(dir, 'fresh.api.md');
      writeFileSync(fresh, text);
      const diff = spawnSync(
        'diff',
        ['-u', '--label', `${r.out} (checked in)`, '--label', `${r.out} (from the sources)`, existsSync(path) ? path : '/dev/null', fresh],
        {
          encoding: 'utf8',
        },
      );
      console.error(diff.stdout || `${r.out} differs from the sources`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  if (stale) {
    console.error(
      `api-report: the public API of @gleaner/core changed (diff above). If the change is meant, accept it with \`make api-report\` and commit ` +
        'packages/core/api/; a change to @gleaner/core/plugin also decides PLUGIN_API_VERSION (docs/plugins.md).',
    );
    process.exit(1);
  }
  if (check) console.log('api-report: up to date');
}
