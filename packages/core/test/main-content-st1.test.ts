// Main content: a product page whose name is a level-one heading by ARIA only (`<div role="heading" aria-level="1">`),
// its header (name, summary beside the media, facts linked to their pages) looked into, not left out as a link block.
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

const LD = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Cave Diver"}</script>`;

const product = (title: string) =>
  page(
    `<div class="page-wrap"><div class="top-area">
      <div class="crumbs"><a href="/games">All games</a> &gt; <a href="/games/indie">Indie</a> &gt; <a href="/app/1">Cave Diver</a></div>
      <div class="title-area">${title}<a class="btn" href="/hub/1">Community hub</a></div>
      <div class="media-and-summary"><div class="media"><a href="/v/1">Trailer one</a> <a href="/v/2">Trailer two</a> <a href="/v/3">Trailer three</a>
        <a href="/s/1">Screenshot one</a> <a href="/s/2">Screenshot two</a> <a href="/s/3">Screenshot three</a> <a href="/s/4">Screenshot four</a></div>
        <div class="summary-col"><div class="snippet">Dive into flooded caves, map the dark and bring back what the old miners left behind in this calm exploration game.</div>
          <div class="reviews"><a href="#reviews">Very Positive</a> <a href="#reviews">(12,345 reviews)</a></div>
          <div class="dev"><span>Developer:</span> <a href="/developer/deepworks">Deepworks Studio</a></div>
          <div class="tags"><a href="/tag/exploration">Exploration</a> <a href="/tag/indie">Indie</a> <a href="/tag/atmospheric">Atmospheric</a> <a href="/tag/relaxing">Relaxing</a></div></div></div></div>
      <div class="middle"><div class="buy"><h2>Buy Cave Diver</h2><div class="price">19,99€</div><a href="/cart">Add to cart</a></div>
        <h2>About this game</h2>${para('Cave diving', 6)}</div></div>`,
    LD,
  );

describe('page: main content of a product page whose name is an ARIA level-one heading', () => {
  it("keeps the product's summary beside its media when its name is a role=heading aria-level=1", () => {
    const out = md(product(`<div class="app-name" role="heading" aria-level="1">Cave Diver</div>`));
    expectOnly(out, ['Dive into flooded caves', 'About this game', 'Cave diving paragraph 6'], [...CHROME_WORDS, 'All games']);
  });

  it('leaves the header out as a link block when the name is a plain block', () => {
    const out = md(product(`<div class="app-name">Cave Diver</div>`));
    expectOnly(out, ['About this game', 'Cave diving paragraph 6'], [...CHROME_WORDS, 'Dive into flooded caves']);
  });
});
