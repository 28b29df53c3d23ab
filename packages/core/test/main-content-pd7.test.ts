// Main content on product pages (pd7): a carousel's or a gallery's position standing alone ("1 of
// 5", "1 / of 5" with its hidden word for screen readers) and a video player's time readout
// ("0:01/0:56") are the widget's, not the content's (labels.ts); a score in a table's cell or a
// sentence naming a count is kept. A collapsed text's toggle drawn by any element ("READ MORE" in a
// div, "read less read more" in a link showing one word at a time) is the script's (card-counters.ts);
// a heading so named is kept.
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

const LD = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Harbor Watch","offers":{"@type":"Offer","price":"168.00","priceCurrency":"USD"}}</script>`;
const TOP = `<h1>Harbor Watch</h1><p class="price">$168.00</p>${para('Watch', 3)}`;

describe('page: main content of product pages (pd7)', () => {
  it("leaves out a gallery's position and a player's time readout standing alone", () => {
    const html = page(
      `<main><div class="gallery"><img src="/a.jpg" alt=""><div class="slider-counter"><span>7</span> <span aria-hidden="true"> / </span><span class="visually-hidden">of</span> <span>9</span></div></div>
      ${TOP}<div class="video"><div class="controls"><span>0:01</span><span>/</span><span>4:16</span></div></div>
      <div class="thumbs"><div>3 von 8</div></div></main>`,
      LD,
    );
    expectOnly(md(html), ['Harbor Watch', 'Watch paragraph 3'], ['7', '9', '0:01', '4:16', '3 von 8', ...CHROME_WORDS]);
  });

  it('keeps such a figure in a table cell or a sentence', () => {
    const html = page(
      `<main>${TOP}<table><tr><th>Test</th><th>Passed</th></tr><tr><td>Drop test</td><td>4 of 6</td></tr></table>
      <p>The crown held in 5 of 6 drop tests from a metre onto a stone floor, more than any watch we sold before.</p></main>`,
      LD,
    );
    expectOnly(md(html), ['Harbor Watch', '4 of 6', 'The crown held in 5 of 6 drop tests'], CHROME_WORDS);
  });

  it("leaves out a collapsed text's toggle however drawn, keeping a heading so named", () => {
    const html = page(
      `<main>${TOP}<section><h2>Who is it for</h2><div class="clip">The strap suits riders, divers and anyone who wants a watch that keeps going through a wet and muddy week.</div>
      <a href="" class="see"><span data-see="0">read less</span> <span data-see="1">read more</span></a></section>
      <div class="collapse"><p>The dial glows for eight hours after a short time in the sun, so the hands stay clear at night.</p><div class="fade"><div class="readmore">READ MORE</div></div></div>
      <h3>Read more</h3><p>Our care guide lists how to clean the case and when to have the seals checked by a watchmaker.</p></main>`,
      LD,
    );
    expectOnly(
      md(html),
      ['Harbor Watch', 'The strap suits riders', 'The dial glows for eight hours', '### Read more', 'Our care guide lists'],
      ['read less', 'READ MORE', ...CHROME_WORDS],
    );
  });
});
