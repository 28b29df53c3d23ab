// Main content: a software product's screen drawn in markup (a block named as a picture holding a code
// block) is left out of a home page's content (illustrations.ts); a documentation page's code is kept.
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

describe('page: main content of a product home page with a drawn screen', () => {
  it('leaves out a block named as a picture that holds a code block, and keeps code elsewhere', () => {
    const html = page(`<main>
      <section class="hero"><h1>The editor for teams</h1><p>Write, test and ship code together, from anywhere.</p>
        <a class="button" href="/download">Download now</a></section>
      <section class="swimlane-graphic"><div class="window"><div class="tabs"><span>server.go</span><span>main.go</span></div>
        <pre><code>package http
func handleBatch(w http.ResponseWriter, r *http.Request) { processEveryUpload(r) }</code></pre>
        <div class="chat">Can you add a batch endpoint to the image service?</div></div></section>
      <section><h2>Any model for any team</h2>${para('Models', 3)}
        <pre><code>npm install --save teamEditorCli</code></pre></section>
    </main>`);
    expectOnly(
      md(html),
      ['The editor for teams', 'Any model for any team', 'teamEditorCli'],
      ['processEveryUpload', 'batch endpoint', 'server.go', ...CHROME_WORDS],
    );
  });
});

describe('page: main content of a reference page with a section about graphics', () => {
  it('keeps the code of a section whose id is a picture word', () => {
    const html = page(`<main><h1>Drawing API</h1>${para('Canvas', 3)}
      <section id="graphics"><h2>Graphics</h2>${para('Shapes', 2)}<pre><code>canvas.drawCircleShape(10, 10, 4)</code></pre></section></main>`);
    expectOnly(md(html), ['Drawing API', 'Graphics', 'drawCircleShape'], [...CHROME_WORDS]);
  });
});

describe('page: main content of a product page with code samples', () => {
  const sample = `<section><h2>Build apps with functions</h2>${para('Functions', 2)}
    <pre><code>export default async (req) =&gt; sendWelcomeEmail(req)</code></pre></section>`;
  it('leaves out the code samples of a page whose title is in a hero and whose content has button links', () => {
    const html = page(`<main><section class="homepage-hero"><h1>Push your ideas to the web</h1>
      <p>Build with code, deploy instantly, one platform for real apps.</p>
      <a class="btn btn-primary" href="/signup">Start for free</a> <a class="btn" href="/sales">Contact sales</a></section>
      ${sample}</main>`);
    expectOnly(md(html), ['Push your ideas to the web', 'Build apps with functions'], ['sendWelcomeEmail', ...CHROME_WORDS]);
  });
  it("keeps a documentation page's code, under a hero without buttons", () => {
    const html = page(`<main><section class="header-hero"><h1>Functions guide</h1></section>${para('Guide', 2)}${sample}</main>`);
    expectOnly(md(html), ['Functions guide', 'Build apps with functions', 'sendWelcomeEmail'], [...CHROME_WORDS]);
  });
});
