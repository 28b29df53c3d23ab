import { expect } from 'chai';
import { readFileSync, existsSync } from 'node:fs';
import { CONFIG_FIELDS, ERROR_CODES } from '@gleaner/core';
import { GENERATED, render } from '../scripts/gen-docs.ts';
import { STATUS_BY_CODE } from '../packages/server/src/http/errors.ts';

const read = (f: string) => readFileSync(new URL(`../${f}`, import.meta.url), 'utf8');

describe('docs: kept complete', () => {
  for (const g of GENERATED) {
    it(`${g.file} has the current generated table (run: node scripts/gen-docs.ts)`, () => {
      const doc = read(g.file);
      expect(render(doc, g.marker, g.table())).to.equal(doc);
    });
  }

  it('documents every configuration field with its environment variable', () => {
    const doc = read('docs/configuration.md');
    for (const [key, f] of Object.entries(CONFIG_FIELDS)) {
      expect(doc, key).to.contain(`\`${key}\``);
      expect(doc, f.env).to.contain(`\`${f.env}\``);
    }
  });

  it('lists every error code with its HTTP status', () => {
    const doc = read('docs/errors.md');
    for (const code of Object.keys(ERROR_CODES)) {
      expect(doc).to.contain(`| \`${code}\` | ${STATUS_BY_CODE[code as keyof typeof STATUS_BY_CODE]} |`);
    }
  });

  it('has the architecture, configuration, errors and api pages', () => {
    for (const page of ['architecture', 'configuration', 'errors', 'api', 'operations']) {
      expect(existsSync(new URL(`../docs/${page}.md`, import.meta.url)), page).to.equal(true);
    }
  });
});

describe('docs: the embedding and plugin guides show the code the packaging test runs', () => {
  const examples = [
    read('examples/embed-express/service.ts'),
    read('examples/driver-fetch-plugin/test/contract.test.ts'),
    read('examples/driver-fetch-plugin/src/index.ts'),
  ];
  for (const page of ['docs/embedding.md', 'docs/plugins.md']) {
    it(`${page}: every TypeScript block is taken verbatim from examples/`, () => {
      const blocks = [...read(page).matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1].trimEnd());
      expect(blocks.length, 'TypeScript blocks').to.be.greaterThan(0);
      for (const block of blocks)
        expect(
          examples.some((e) => e.includes(block)),
          block.split('\n')[0],
        ).to.equal(true);
    });
  }
});
