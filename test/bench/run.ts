// `make bench`: runs every test/bench/*.bench.ts in turn (or those named on the command line) and
// prints their figures. Benchmarks use the same DATABASE_URL as the tests, in throwaway schemas.
import { readdirSync } from 'node:fs';

const dir = new URL('./', import.meta.url);
const wanted = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .sort();
for (const f of files) {
  console.log(`\n== ${f.replace('.bench.ts', '')} ==`);
  const mod = (await import(new URL(f, dir).href)) as { run: () => Promise<void> };
  await mod.run();
}
process.exit(0);
