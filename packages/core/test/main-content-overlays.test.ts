import { reducePage } from '../src/page/index.ts';
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

describe('page: overlays printed into the page', () => {
  it("a page builder's popup templates, shown by a script on a trigger, are left out of the content and the model input", () => {
    const popups = `<div data-elementor-type="popup" class="elementor elementor-12 elementor-location-popup"><section><p>Get our career app free for seven days, no card needed.</p></section></div>
      <div class="elementor elementor-13 elementor-location-popup"><section><p>Sharpen your interview skills with an hour of coaching.</p></section></div>`;
    const html = page(`<main><h1>Resume writing</h1>${para('Resume', 4)}${popups}</main>`);
    const input = reducePage(html, { url: 'https://site.example/x/', mode: 'standard' }).text;
    for (const text of [md(html), input])
      expectOnly(text, ['Resume writing', 'Resume paragraph 4'], ['career app free', 'Sharpen your interview', ...CHROME_WORDS]);
  });
});
