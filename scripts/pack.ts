// `make pack`: every workspace package as an npm tarball in dist/packages/, the set an embedder
// installs together (docs/embedding.md): @gleaner/server depends on all the plugin packages, and the
// packages are not on the npm registry, so installing some of the tarballs alone cannot work.
// A package whose dist/ is older than its sources is rebuilt first. Prints the tarballs' paths.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGES, build, isStale } from './build.ts';

const root = new URL('..', import.meta.url).pathname;

/** Builds what is stale and packs every package into `dest` (emptied first); returns the tarballs' paths. */
export function pack(dest = join(root, 'dist/packages')): string[] {
  for (const pkg of PACKAGES) if (isStale(pkg)) build(pkg);
  rmSync(dest, { recursive: true, force: true });
  mkdirSync(dest, { recursive: true });
  // Without the workspace's `gleaner-source` condition: the tarballs hold dist/ only.
  execFileSync('npm', ['pack', '--silent', '--pack-destination', dest, ...PACKAGES.map((p) => `./${p}`)], {
    cwd: root,
    env: { ...process.env, NODE_OPTIONS: '' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return readdirSync(dest)
    .filter((f) => f.endsWith('.tgz'))
    .sort()
    .map((f) => join(dest, f));
}

if (import.meta.filename === process.argv[1]) {
  const tarballs = pack(process.argv[2]);
  process.stdout.write(`${tarballs.join('\n')}\n`);
}
