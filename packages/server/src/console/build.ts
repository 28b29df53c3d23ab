/**
 * Builds the web console (ui/) into dist/: one minified ES module and one stylesheet, both named by
 * content hash (so the server can cache them for a year), and index.html pointing at them. Run by
 * `make setup` (scripts/build-console.ts); nothing is fetched from a CDN at run time.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { build } from 'esbuild';

import { CONSOLE_DIST } from './build-paths.ts';
export { CONSOLE_DIST };
const UI = new URL('./ui/', import.meta.url).pathname;

const page = (script: string, style: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Gleaner console</title>
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
<link rel="stylesheet" href="/console/assets/${style}">
<script type="module" src="/console/assets/${script}"></script>
</head>
<body><div id="app"></div><noscript>The Gleaner console needs JavaScript; the API works without it (see /docs).</noscript></body>
</html>
`;

export async function buildConsole(outDir = CONSOLE_DIST): Promise<{ script: string; style: string }> {
  rmSync(outDir, { recursive: true, force: true });
  const assets = join(outDir, 'assets');
  mkdirSync(assets, { recursive: true });
  const result = await build({
    entryPoints: [join(UI, 'main.ts'), join(UI, 'styles.css')],
    outdir: assets,
    entryNames: '[name]-[hash]',
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['chrome110', 'firefox110', 'safari16'],
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
  });
  const outputs = Object.keys(result.metafile.outputs).map((p) => basename(p));
  const script = outputs.find((o) => o.startsWith('main-') && o.endsWith('.js'))!;
  const style = outputs.find((o) => o.startsWith('styles-') && o.endsWith('.css'))!;
  writeFileSync(join(outDir, 'index.html'), page(script, style));
  return { script, style };
}
