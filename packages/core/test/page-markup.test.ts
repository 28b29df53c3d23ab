import { expect } from 'chai';
import { htmlToMarkdown, reducePage } from '../src/page/index.ts';
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

describe('page: markup that hides or shapes the text', () => {
  it("a page builder's popup templates, shown by a script on a trigger, are left out of the content and the model input", () => {
    const popups = `<div data-elementor-type="popup" class="elementor elementor-12 elementor-location-popup"><section><p>Get our career app free for seven days, no card needed.</p></section></div>
      <div class="elementor elementor-13 elementor-location-popup"><section><p>Sharpen your interview skills with an hour of coaching.</p></section></div>`;
    const html = page(`<main><h1>Resume writing</h1>${para('Resume', 4)}${popups}</main>`);
    const input = reducePage(html, { url: 'https://site.example/x/', mode: 'standard' }).text;
    for (const text of [md(html), input])
      expectOnly(text, ['Resume writing', 'Resume paragraph 4'], ['career app free', 'Sharpen your interview', ...CHROME_WORDS]);
  });

  it("a highlighter's code lines written without newlines between them (Shiki's span.line) keep their lines, in the markdown and the model input", () => {
    const shiki =
      '<pre class="shiki"><code><span class="line"><span>npm</span><span> create vite</span></span><span class="line"><span>cd</span><span> my-app</span></span></code></pre>';
    const spaced = '<pre><code><span class="line">a = 1</span>\n<span class="line">b = 2</span></code></pre>';
    const html = page(`<main><h1>Install</h1>${para('Install', 3)}${shiki}${spaced}</main>`);
    const url = 'https://site.example/docs/';
    for (const text of [md(html), htmlToMarkdown(html, { url }), reducePage(html, { url, mode: 'standard' }).text]) {
      expect(text).to.include('npm create vite\ncd my-app');
      expect(text).to.include('a = 1\nb = 2');
      expect(text).not.to.include('a = 1\n\nb = 2');
    }
  });
});
