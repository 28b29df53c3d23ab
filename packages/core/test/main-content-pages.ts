// Small pages of each type, with the chrome real pages carry around their content: the helpers of
// the main-content tests (main-content.test.ts, main-content-rules.test.ts).
import { expect } from 'chai';
import { htmlToMarkdown } from '../src/page/index.ts';

const CHROME_TOP = `<header class="site-header"><a href="/">Logo</a><nav><a href="/a">Menu one</a> <a href="/b">Menu two</a></nav></header>
<div class="cookie-notice">We use cookies to improve your experience. Accept all cookies</div>`;
const CHROME_BOTTOM = `<footer><p>Footer text © Example Inc.</p><a href="/privacy">Privacy policy</a></footer>`;
export const para = (topic: string, n = 3) =>
  Array.from({ length: n }, (_, i) => `<p>${topic} paragraph ${i + 1} explains the subject in plain words, with enough detail to read on its own.</p>`).join(
    '',
  );
export const page = (body: string, head = '') =>
  `<!doctype html><html><head><title>T</title>${head}</head><body>${CHROME_TOP}${body}${CHROME_BOTTOM}</body></html>`;
export const md = (html: string) => htmlToMarkdown(html, { url: 'https://site.example/x/', onlyMainContent: true });

export function expectOnly(out: string, kept: string[], dropped: string[]) {
  for (const k of kept) expect(out, k).to.include(k);
  for (const d of dropped) expect(out, d).not.to.include(d);
}
export const CHROME_WORDS = ['Menu one', 'Logo', 'Accept all cookies', 'Footer text', 'Privacy policy'];
