// Builds the workspace packages to dist/ (JavaScript, .d.ts, source maps) in dependency order, and
// copies the files a package reads at run time (its JSON schemas, SQL migrations) next to the code.
// `node scripts/build.ts` builds all; `node scripts/build.ts packages/core` one. `make setup` runs it.
// The build resolves sibling packages to their dist/ (no `gleaner-source` condition), as an
// installed package would, so a package is built after the ones it imports.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
/** Dependency order: core, then what needs only core, then the server (which wires the plugins). */
export const PACKAGES = [
  'packages/core',
  'packages/testing',
  'plugins/driver-http',
  'plugins/driver-playwright',
  'plugins/driver-selenium',
  'plugins/llm-openai',
  'plugins/llm-ollama',
  'packages/server',
];
const ASSET = /\.(json|sql)$/;

function copyAssets(src: string, dist: string): number {
  let n = 0;
  for (const name of readdirSync(src)) {
    const from = join(src, name);
    if (statSync(from).isDirectory()) n += copyAssets(from, join(dist, name));
    else if (ASSET.test(name)) {
      cpSync(from, join(dist, name));
      n++;
    }
  }
  return n;
}

/** Newest modification time of the files below `path` (0 when it does not exist). */
function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return Math.max(st.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/** True when the package's dist/ is older than its sources, package.json or build config. */
export function isStale(dir: string): boolean {
  const pkg = join(root, dir);
  const built = existsSync(join(pkg, 'dist')) ? newest(join(pkg, 'dist')) : 0;
  const inputs = [
    join(pkg, 'src'),
    join(pkg, 'package.json'),
    join(pkg, 'tsconfig.build.json'),
    join(root, 'tsconfig.build.json'),
    join(root, 'tsconfig.json'),
  ];
  return built === 0 || Math.max(...inputs.map(newest)) > built;
}

export function build(dir: string): void {
  const pkg = join(root, dir);
  rmSync(join(pkg, 'dist'), { recursive: true, force: true });
  execFileSync(join(root, 'node_modules/.bin/tsc'), ['-p', join(pkg, 'tsconfig.build.json')], { stdio: 'inherit' });
  const assets = copyAssets(join(pkg, 'src'), join(pkg, 'dist'));
  // The web console's bundle (scripts/build-console.ts, run first by `make setup`) ships with the server.
  const consoleDist = join(pkg, 'src/console/dist');
  if (existsSync(consoleDist)) cpSync(consoleDist, join(pkg, 'dist/console/dist'), { recursive: true });
  console.log(`built ${dir}${assets ? ` (+${assets} assets)` : ''}${existsSync(consoleDist) ? ' (+ console)' : ''}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const only = process.argv.slice(2).map((d) => relative(root, join(process.cwd(), d)));
  for (const dir of PACKAGES) if (!only.length || only.includes(dir)) if (existsSync(join(root, dir))) build(dir);
}
