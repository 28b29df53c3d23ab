import { expect } from 'chai';
import { needsBrowser } from '../src/extract/needs-browser.ts';

const page = (html: string, contentType = 'text/html') => ({ html, contentType });
const prose = (n: number) => `<p>${'Plain server-rendered words about products and prices. '.repeat(n)}</p>`;

describe('needs-browser heuristics', () => {
  it('calls an app shell (scripts, almost no text) a browser page', () => {
    const html = '<html><head><script src="/app.js"></script></head><body><div class="spinner">Loading…</div></body></html>';
    expect(needsBrowser(page(html))).to.equal('the page is an app shell (scripts and almost no text)');
  });

  it('recognises a <noscript> prompt for JavaScript', () => {
    const html = `<html><body>${prose(30)}<noscript>You need to enable JavaScript to run this app.</noscript></body></html>`;
    expect(needsBrowser(page(html))).to.equal('the page asks for JavaScript in <noscript>');
  });

  it('recognises empty framework mount points on a page with little text', () => {
    expect(needsBrowser(page(`<body><nav>Home About Contact</nav><div id="__next"></div></body>`))).to.equal('the page has an empty app mount point');
    expect(needsBrowser(page(`<body><app-root></app-root></body>`))).to.equal('the page has an empty Angular root');
  });

  it('leaves server-rendered pages on plain HTTP, even with scripts or an empty widget mount', () => {
    expect(needsBrowser(page(`<html><body>${prose(40)}<script>track()</script><div id="root"></div></body></html>`))).to.equal(null);
    expect(needsBrowser(page('<html><body><h1>Short page</h1><p>No scripts here.</p></body></html>'))).to.equal(null);
  });

  it('ignores text that scripts, styles and comments carry', () => {
    const html = `<html><body><script>${'var x = "lots of code text";'.repeat(100)}</script><style>${'.a{color:red}'.repeat(100)}</style><!-- ${'comment '.repeat(100)} --></body></html>`;
    expect(needsBrowser(page(html))).to.match(/app shell/);
  });

  it('never escalates non-HTML documents', () => {
    expect(needsBrowser(page('{"items": []}', 'application/json'))).to.equal(null);
    expect(needsBrowser(page('<script></script>', 'text/plain'))).to.equal(null);
  });

  it('stays linear on hostile markup (unclosed tags, thousands of noscript prompts), so a page cannot stall the process', function () {
    // Each of these took minutes to hours with backtracking regular expressions over a 10 MB page.
    this.timeout(20_000);
    const big = 4 << 20;
    const cases: Array<[string, RegExp | null]> = [
      ['<noscript>enable javascript '.repeat(big / 28), /asks for JavaScript/],
      [`<body>${'<script '.repeat(big / 8)}`, /app shell/],
      [`<body>${'<div id="root" '.repeat(big / 15)}`, null],
      [`<body>${'<!-- '.repeat(big / 5)}`, null],
    ];
    for (const [html, verdict] of cases) {
      const got = needsBrowser(page(html));
      if (verdict) expect(got).to.match(verdict);
      else expect(got).to.equal(null);
    }
  });
});
