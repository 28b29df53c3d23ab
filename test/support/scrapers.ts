// Building a classic scraper over HTTP, as clients do: POST generate, then poll until ready.
import { expect } from 'chai';
import { waitFor } from './wait.ts';
import type { Stack } from './stack.ts';

/** Generates a scraper from `body` ({url, attributes, ...}) and returns its id once ready. */
export async function buildScraper(s: Stack, body: Record<string, unknown>): Promise<string> {
  const started = await s.api('POST', '/v1/extractor/generate', body);
  expect(started.status, started.text).to.equal(202);
  const id = started.body.template_id as string;
  const built = await waitFor(
    async () => {
      const r = await s.api('GET', `/v1/extractor/${id}`);
      return r.body.status === 'ready' || r.body.status === 'failed' ? r.body : undefined;
    },
    30_000,
    `scraper ${id} build`,
  );
  expect(built.status, built.error).to.equal('ready');
  return id;
}
