// Main content on product pages: near copies (near-copies.ts, copies.ts) — a block printing nearly
// the words of an earlier block (a guide printed twice with a word changed, a tab repeating the
// description with small edits) is left out, the first copy kept; like cards and variants giving
// other figures are not copies. A shop's live count of visitors beside the product (labels.ts) and
// its chat prompt around a free-text field (chat-prompts.ts).
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

const LD = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Harbor Watch","offers":{"@type":"Offer","price":"168.00","priceCurrency":"USD"}}</script>`;
const TOP = `<h1>Harbor Watch</h1><p class="price">$168.00</p>${para('Watch', 3)}`;
const GUIDE = (word: string) =>
  `The sealed case keeps out light rain, sweat and ${word} water contact, so the watch can be worn every day near the sea, the pool and the kitchen sink without any worry at all.`;

describe('page: main content of product pages (pd6)', () => {
  it('leaves out a later block saying nearly what an earlier one said, keeping the first', () => {
    const html = page(
      `<main>${TOP}
      <section class="guide"><h3>Water guide</h3><p>${GUIDE('brief')}</p></section>
      <div class="panel"><div class="panel__body"><h6>Water guide</h6><div class="text">${GUIDE('short')}</div></div></div></main>`,
      LD,
    );
    expectOnly(md(html), ['Harbor Watch', 'Watch paragraph 3', 'and brief water contact'], ['and short water contact', ...CHROME_WORDS]);
  });

  it('keeps like cards printing one template and variants giving other figures', () => {
    const card = (name: string) =>
      `<li class="card"><div class="card__body"><p>The ${name} strap fits every case of the collection and is made from soft leather tanned in a small family workshop near the coast.</p></div></li>`;
    const req = (cls: string, label: string, gb: number, ghz: string) =>
      `<div class="${cls}"><p>${label}: needs a phone with ${gb} GB of memory, a ${ghz} GHz processor and the companion app installed to sync the watch with your daily steps.</p></div>`;
    const html = page(
      `<main>${TOP}<ul class="cards">${card('Black')}${card('Brown')}</ul>
      <div class="reqs">${req('left', 'Minimum', 4, '1.8')}${req('right', 'Recommended', 8, '2.4')}</div></main>`,
      LD,
    );
    expectOnly(md(html), ['The Black strap fits', 'The Brown strap fits', 'with 4 GB of memory', 'with 8 GB of memory'], CHROME_WORDS);
  });

  it("leaves out a shop's live count of visitors beside the product, keeping a sentence about viewers", () => {
    const html = page(
      `<main>${TOP}<div class="live-visitors"><span class="icon"></span><div class="text"><span class="count">16</span> people are viewing this right now</div></div>
      <p>12 people are viewing this dial from across the room when you wear it, and the face stays clear in bright sun at the beach.</p></main>`,
      LD,
    );
    expectOnly(md(html), ['Harbor Watch', 'Watch paragraph 3', '12 people are viewing this dial'], ['16 people', 'viewing this right now', ...CHROME_WORDS]);
  });

  it("leaves out a shop's chat prompt around a free-text field, keeping the sections beside it", () => {
    const html = page(
      `<main>${TOP}<section class="assistant"><div class="assistant__header"><h2>Find your watch with a little help</h2>
      <p>Whether you are exploring or ready to buy, we can guide you.</p></div>
      <div class="assistant__field"><textarea placeholder="Type your question here"></textarea><span>Hit enter to chat</span></div></section>
      <section class="care"><h2>Caring for the strap</h2><p>Wipe the leather with a dry cloth once a week and keep it away from long soaks in water.</p></section></main>`,
      LD,
    );
    expectOnly(
      md(html),
      ['Harbor Watch', 'Caring for the strap', 'Wipe the leather with a dry cloth'],
      ['little help', 'guide you', 'Hit enter to chat', ...CHROME_WORDS],
    );
  });

  it("keeps a form asking a question of the product's Q&A", () => {
    const html = page(
      `<main>${TOP}<section class="qa"><h2>Harbor Watch Q&amp;A</h2><div class="ask"><h3>Ask a Question</h3>
      <p>Start typing your question and we will check if it was already answered.</p><textarea placeholder="Your question"></textarea></div></section></main>`,
      LD,
    );
    expectOnly(md(html), ['Harbor Watch', 'Ask a Question', 'Start typing your question'], CHROME_WORDS);
  });
});
