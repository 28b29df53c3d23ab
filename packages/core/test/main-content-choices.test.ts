// Main content: the labels of a group of radio buttons or checkboxes written as sentences (a
// self-assessment's answers, a pricing toggle's choices) are a form's controls, left out
// (choice-labels.ts choiceLabels()); choices named in a word or three, and a lone checkbox, stay.
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

const question = (n: number) => `<div class="question-container"><div class="question">${n}. How well does your team plan its work?</div>
  <div class="options">
    <label class="option-label"><input type="radio" name="q${n}" value="3"> Fully integrated with the planning of the whole business</label>
    <label class="option-label"><input type="radio" name="q${n}" value="2"> Partially aligned with some strategic input now and then</label>
    <label class="option-label"><input type="radio" name="q${n}" value="1"> Limited involvement, mostly reacting to what comes up</label>
  </div></div>`;

describe('page: main content, choices written as sentences', () => {
  it("leaves a self-assessment's answers out and keeps its questions and the page's text", () => {
    const html = page(
      `<main><h1>Team services</h1>${para('Service', 3)}<h2>How effective is your team?</h2>
      <form class="assessment">${[1, 2, 3].map(question).join('')}</form>${para('Closing', 2)}</main>`,
    );
    expectOnly(
      md(html),
      ['Service paragraph 3', 'How well does your team plan its work?', 'Closing paragraph 2'],
      [...CHROME_WORDS, 'Fully integrated with the planning', 'Partially aligned with some strategic', 'Limited involvement'],
    );
  });

  it('keeps choices named in a few words (a filter, a list of topics) and a lone opt-in checkbox', () => {
    const opt = (v: string, i: number) => `<li><input type="checkbox" id="t${i}" name="topic"><label for="t${i}">${v}</label></li>`;
    const html = page(
      `<main><h1>Courses</h1>${para('Courses', 3)}<ul class="topics">${['Data science', 'Short sleeve', 'Machine learning'].map(opt).join('')}</ul>
      <form><label><input type="checkbox" name="news"> Send me the monthly list of new courses</label></form></main>`,
    );
    expectOnly(md(html), ['Courses paragraph 3', 'Data science', 'Short sleeve', 'Machine learning', 'Send me the monthly list'], CHROME_WORDS);
  });
});
