// Main content on service pages: a list item whose span holds a sentence with a link in it
// (link-blocks.ts), and disclosure panels named in compound class words (content-tree.ts).
import { expectOnly, md, page, para } from './main-content-pages.ts';

describe('page: main content, sentences with links and compound panel names', () => {
  it('keeps a list item whose span is a sentence with a link in it, and drops a list of bare links', () => {
    const html = page(`<main><h1>Security consulting</h1>${para('Security', 2)}
      <p>We guide you in:</p>
      <ul><li><span><span>Establishing governance programs for the whole company</span></span></li>
        <li><span><span>Addressing third-party <a href="/vendor-risk">vendor and service provider risks</a></span></span></li>
        <li><span><span>Testing infrastructure and business applications</span></span></li></ul>
      ${para('Approach', 2)}
      <div class="more"><span><a href="/a">Cloud services overview</a> <a href="/b">Data services overview</a></span></div></main>`);
    expectOnly(md(html), ['Addressing third-party', 'vendor and service provider risks', 'Testing infrastructure'], ['Cloud services overview']);
  });

  it('reads hidden disclosure panels named in BEM or camel-case compounds (`tab__content`, `AccordionPanel`)', () => {
    const html = page(`<main><h1>Cybersecurity services</h1>${para('Services', 2)}
      <div class="tabs"><button>Audit</button><button>Testing</button>
        <div class="tab__content" id="tab-1">Audit and assurance: controls design and testing.</div>
        <div hidden class="tab__content" id="tab-2">Penetration testing simulates attacks on your systems.</div></div>
      <h2>Questions</h2>
      <section class="StyledAccordion-x1"><h3><button aria-expanded="false">What does it cost?</button></h3>
        <section inert aria-hidden="true" class="Accordionstyle__AccordionPanel-sc-4 abc">Pricing depends on the size of your team.</section></section>
      ${para('Closing', 1)}</main>`);
    expectOnly(md(html), ['Penetration testing simulates attacks', 'Pricing depends on the size'], []);
  });

  it("keeps a services page's cards whose title is a paragraph of the link, not a heading", () => {
    const card = (name: string) =>
      `<a href="/designers/${name}"><p class="t">${name} Designers</p><p class="d">Top ${name} designers shape a product from business goals through research to working prototypes.</p><p>View ${name} Designers</p></a>`;
    const html =
      page(`<main><h1>Hire designers</h1><div class="intro">${para('Designers', 3)}<ul><li>Fast matching with vetted talent</li><li>Flexible engagements of any length</li></ul></div>
      <section><h2>Find the designers you need</h2><div class="cards">${['UX', 'UI', 'Product'].map(card).join('')}</div></section>
      <section><h2>How hiring works</h2>${para('Process', 3)}</section></main>`);
    expectOnly(md(html), ['Top UX designers shape a product', 'Product Designers'], []);
  });

  it("leaves out a marketing page's legal fine print named so (`copy-legal`, `has-legal-font-size`)", () => {
    const html = page(`<main><h1>Email marketing</h1>${para('Email', 6)}
      <div class="module"><div class="module--content"><div class="   copy-legal"><p><strong>*Disclaimers</strong></p>
        <ol><li>Based on publicly available data on the number of customers of competitors.</li></ol></div></div></div>
      <p class="has-legal-font-size"><em>Rates are estimates and could vary each year by program of study.</em></p></main>`);
    expectOnly(md(html), ['Email paragraph 6'], ['Disclaimers', 'publicly available data', 'Rates are estimates']);
  });

  it("keeps the paragraphs right under a title that lies outside the content (a hero's lead), not its button", () => {
    const html = page(`<div class="hero"><h1>Math tutoring online</h1><p>Connect with a qualified tutor for one-on-one support.</p>
      <p>Improve your grades on your own schedule.</p><a class="btn" href="/start">Get started</a><p>Rated 4.8 by parents</p></div>
      <div class="content"><h2>Why tutoring helps</h2>${para('Tutoring', 8)}</div>`);
    expectOnly(
      md(html),
      ['# Math tutoring online', 'Connect with a qualified tutor', 'Improve your grades', 'Tutoring paragraph 8'],
      ['Get started', 'Rated 4.8'],
    );
  });

  it("leaves out a DocBook page's navigation header and footer (`navheader`, `navfooter`)", () => {
    const nav = (cls: string) =>
      `<div class="${cls}"><table width="100%"><tr><th colspan="3">Chapter 11. Indexes</th></tr><tr><td><a href="/prev">Prev</a> </td><td>Part II. The SQL Language</td><td> <a href="/next">Next</a></td></tr></table><hr></div>`;
    const html = page(
      `<div id="docContent">${nav('navheader')}<h1>Chapter 11. Indexes</h1>${[1, 2, 3].map((n) => `<div class="sect1"><h2>11.${n}. Index part</h2>${para(`Section ${n}`, 2)}</div>`).join('')}${nav('navfooter')}</div>`,
    );
    expectOnly(md(html), ['Section 3 paragraph 2'], ['Part II. The SQL Language', 'Prev']);
  });

  it("reads a carousel's slides hidden from screen readers while off screen, not the loop's cloned copies", () => {
    const slide = (i: number, cls: string, hidden: boolean) =>
      `<div class="${cls}" data-index="${i}"${hidden ? ' aria-hidden="true"' : ''}><blockquote>Quote ${i}: the team cut our response times in half within a quarter.</blockquote><p>Customer ${i}, Head of Support</p></div>`;
    const html = page(`<main><h1>Customer service software</h1>${para('Service', 4)}
      <div class="slick-slider"><div class="slick-list"><div class="slick-track">${slide(9, 'slick-slide slick-cloned', true)}${slide(1, 'slick-slide slick-active', false)}${slide(2, 'slick-slide', true)}${slide(3, 'slick-slide', true)}</div></div></div></main>`);
    const out = md(html);
    expectOnly(out, ['Quote 1:', 'Quote 2:', 'Quote 3:'], ['Quote 9:']);
  });
});
