// Main content: short blocks hidden by a utility class are set aside on any page, not only on product pages (main-content.ts).
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

describe('page: main content with blocks hidden by a utility class off a product page', () => {
  it("leaves out a service page's short hidden rows and keeps its shown ones", () => {
    const html = page(`<main><article>
      <h1>Bookkeeping for small firms</h1>
      ${para('Bookkeeping', 4)}
      <table class="plans"><tr class="feature-list"><td>Monthly ledger review</td><td>check</td></tr>
        <tr class="feature-list"><td>Quarterly tax filing</td><td>check</td></tr>
        <tr class="feature-list hidden"><td>Payroll export to the bank</td><td>check</td></tr>
        <tr class="feature-list hidden"><td>Receipt scanning by phone</td><td>check</td></tr></table>
      </article></main>`);
    expectOnly(
      md(html),
      ['Bookkeeping for small firms', 'Monthly ledger review', 'Quarterly tax filing'],
      ['Payroll export', 'Receipt scanning', ...CHROME_WORDS],
    );
  });

  it('keeps a long hidden block a script shows', () => {
    const html = page(`<main><article>
      <h1>Bookkeeping for small firms</h1>
      ${para('Bookkeeping', 4)}
      <div class="hide">${para('Methodology', 3)}</div>
      </article></main>`);
    expectOnly(md(html), ['Bookkeeping for small firms', 'Methodology'], CHROME_WORDS);
  });

  it('leaves out a long hidden overlay holding a close button', () => {
    const cards = Array.from({ length: 6 }, (_, k) => `<li class="card"><a href="/p/${k}">Headphones model ${k}</a><span>$${k}9.00</span></li>`).join('');
    const html = page(`<main><h1>Headphones</h1>${para('Headphones', 2)}<ul class="grid">${cards}</ul>
      <div class="compare-drawer hidden"><h5>Compare products</h5><button class="compare-close">Back</button>${para('Comparison', 4)}</div>
      </main>`);
    expectOnly(md(html), ['Headphones model 3'], ['Compare products', 'Comparison', ...CHROME_WORDS]);
  });
});
