// The evaluation's snippet checks (test/eval/metrics.ts) compare like with like: the model input loses
// only the markup reducePage's writer adds, never characters of the page's own text.
import { expect } from 'chai';
import { reducePage } from '@gleaner/core/internal';
import { hasSnippet, markdownToText, modelInputText, normalize } from './eval/metrics.ts';
import { htmlToText } from './eval/html-text.ts';

describe('eval: snippet checks on the model input', () => {
  it("finds the page's own *, |, ~, _ and <tag> text in the model input, and none of the writer's markup", () => {
    const html = `<html><body><main><h1>Git fixups</h1>
      <p>AI does not *understand* what it writes, it only predicts the next word of a sentence.</p>
      <p>Create a new commit which fixes up &lt;commit&gt; when applied with git rebase, or ~4-8 sets.</p>
      <p>Brother SE600 | Computerized Sewing Machine, a network called [projectname]_default.</p>
      <ul><li><a href="/a">First item</a> of the list</li><li>Second item</li></ul>
      <table><tr><th>Size</th><th>Weight</th></tr><tr><td>Large</td><td>2 kg</td></tr></table>
      <p><del>Old price</del> New price</p><p>Not only in the clinic<del>,</del> but also in the office.</p><p>* Up to 100W with the dual port adapter</p></main></body></html>`;
    const md = reducePage(html, { url: 'https://example.com/doc', mode: 'standard' }).text;
    const visible = normalize(htmlToText(html));
    const input = normalize(modelInputText(md));
    const snippets = [
      'AI does not *understand* what it writes',
      'fixes up <commit> when applied',
      'or ~4-8 sets',
      'Brother SE600 | Computerized',
      '[projectname]_default',
      '* Up to 100W',
    ];
    for (const s of snippets) {
      expect(hasSnippet(visible, s), s).to.equal(true);
      expect(hasSnippet(input, s), s).to.equal(true);
    }
    // markdownToText (for the markdown endpoint's output) strips those characters: it would miss them.
    expect(snippets.filter((s) => hasSnippet(normalize(markdownToText(md)), s))).to.have.length.below(snippets.length);
    for (const s of ['First item of the list', 'Size Weight', 'Large 2 kg', 'Old price New price', 'in the clinic, but also'])
      expect(hasSnippet(input, s), s).to.equal(true);
    for (const markup of ['](/a)', '# Git', '- Second', '|---', '~~']) expect(modelInputText(md)).not.to.include(markup);
  });

  it("keeps a code block's own # and - at a line's start: the writer adds no marker there", () => {
    const html = `<html><body><main><h1>Async tasks</h1><p>${'An explanation of how awaiting works in this language and why it matters. '.repeat(3)}</p>
      <pre><code># awaiting the task gives control back to the caller
- not a list item, a diff line
print("done")</code></pre></main></body></html>`;
    const md = reducePage(html, { url: 'https://example.com/doc', mode: 'standard' }).text;
    const input = normalize(modelInputText(md));
    for (const s of ['# awaiting the task gives control back', '- not a list item', 'print("done")']) expect(hasSnippet(input, s), s).to.equal(true);
    expect(modelInputText(md)).not.to.include('```');
    expect(modelInputText(md)).not.to.include('# Async');
  });

  it("reads a link text holding brackets of its own ('Projects with Source Code [2025]') as its text", () => {
    const md = '- For ideas see [100+ Projects with Source Code [2025]](/ml/projects/) for practice, or [the list](/ml/list "List").';
    const input = normalize(modelInputText(md));
    expect(hasSnippet(input, 'For ideas see 100+ Projects with Source Code [2025] for practice, or the list.')).to.equal(true);
  });
});
