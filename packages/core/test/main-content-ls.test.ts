import { expect } from 'chai';
import { findMainContent } from '../src/page/main-content.ts';
import { md, page, para } from './main-content-pages.ts';

describe('page: main content (listings)', () => {
  it('an app shell whose grid a script loads: its footer, kept as holding most of the page, is no content', () => {
    const links = (title: string, n: number) =>
      `<div class="col"><p class="col-title">${title}</p>${Array.from({ length: n }, (_, i) => `<p>${title} entry ${i + 1} of the company</p>`).join('')}</div>`;
    const html = `<!doctype html><html><head><title>Desk converters</title></head><body><div id="root"><div>
      <div class="top-bar"><a href="/login">Sign in</a></div>
      <div class="sort"><span>Sort by</span> <span>Newest</span> <span>Price</span></div><div class="spinner">Loading</div>
      <div class="part-footer container"><div class="footer-columns">${links('About', 8)}${links('Support', 8)}${links('Programs', 8)}</div></div>
    </div></div></body></html>`;
    expect(findMainContent(html).type).to.equal('empty');
    expect(md(html)).to.equal('');
  });

  it('a page whose content lies in a wrapper named as its footer, with its title, keeps it', () => {
    const html = page(`<div class="layout site-footer"><h1>Pricing</h1>${para('Pricing', 6)}</div>`);
    expect(findMainContent(html).type).not.to.equal('empty');
    expect(md(html)).to.include('Pricing paragraph 6');
  });

  const mowers = (head = '') => {
    const card = (i: number) =>
      `<div class="col-4 items-listing"><a href="/p/kr${i}"><h4>KR16${i}</h4><h3>Robotic mower for a ${i}-acre lawn</h3><span class="price">&#36;  ${i},099.99</span></a></div>`;
    return page(
      `<div class="content"><h1>Robotic lawn mowers</h1>
      <section class="related-product"><div class="row">${[1, 2, 3, 4, 5, 6].map(card).join('')}</div></section>
      <div class="newsletter-signup"><p>Sign up for our newsletter to hear about new mowers, dealer openings and seasonal offers first.</p></div>
      <div class="social-links"><p>Follow us on every network we post on for tips, videos and stories from crews mowing with us.</p></div>
      <div class="store-locator"><p>Loading...</p></div></div>`,
      head,
    );
  };

  it("a category's grid of priced cards named as chrome by its theme (`related-product`) is the page's results", () => {
    const out = md(mowers());
    expect(out).to.include('Robotic mower for a 6-acre lawn');
    expect(out).to.include('2,099.99');
    expect(out).not.to.include('Sign up for our newsletter');
  });

  it('so on a page declared a product by a list of many schema.org Products, not when Open Graph says product', () => {
    const items = Array.from({ length: 10 }, (_, i) => `{"@type":"ListItem","position":${i + 1},"item":{"@type":"Product","name":"KR16${i}"}}`).join(',');
    const ld = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"ItemList","itemListElement":[${items}]}</script>`;
    expect(findMainContent(mowers(ld)).type).to.equal('product');
    expect(md(mowers(ld))).to.include('Robotic mower for a 6-acre lawn');
    expect(md(mowers(`${ld}<meta property="og:type" content="product">`))).not.to.include('Robotic mower for a 6-acre lawn');
  });

  it("an FAQ's answers hidden until their question is clicked (`faq__answer`, `display: none`) are read", () => {
    const qa = (i: number) =>
      `<div class="faq__item"><h3 class="faq__question">Question ${i} about certificates?</h3><div class="faq__answer" style="display: none;"><p>Answer ${i} explains how the certificate is earned, in a few sentences of its own.</p></div></div>`;
    const html = page(
      `<div class="browse"><h1>Free online courses with certificates</h1>${para('Intro', 3)}<h2>Frequently asked questions</h2>${[1, 2, 3, 4].map(qa).join('')}</div>`,
    );
    const out = md(html);
    expect(out).to.include('Answer 1 explains');
    expect(out).to.include('Answer 4 explains');
  });
});
