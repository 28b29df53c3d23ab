// Main content: a thread's edit notes found by their wording, whatever their classes (labels.ts editLines).
import { expect } from 'chai';
import { findMainContent } from '../src/page/main-content.ts';
import { CHROME_WORDS, expectOnly, md, page } from './main-content-pages.ts';

const post = (i: number, note: string) =>
  `<article class="message message--post" id="post-${i}"><div class="message-content"><p>Post number ${i} answers the question with its own words and details.</p>
    ${note ? `<span class="ipsType_light"><strong>${note}</strong></span>` : ''}</div></article>`;

describe('page: main content of a thread, its posts\u2019 edit notes', () => {
  it('leaves out a block whose whole text is an edit note, in several languages', () => {
    const notes = [
      'Edited <time>January 29</time> by ErnestQ <a href="/log">(see edit history)</a>',
      'Last edited by otto; 01-02-2024 at 10:00',
      'Zuletzt bearbeitet von Kestrel',
      '',
    ];
    const html = page(`<div class="thread"><h1>Lathe question</h1><div class="block-body">${notes.map((n, i) => post(i + 1, n)).join('')}</div></div>`);
    expect(findMainContent(html).type).to.equal('forum');
    expectOnly(
      md(html),
      ['Lathe question', 'Post number 1 answers', 'Post number 4 answers'],
      ['Edited', 'ErnestQ', 'Last edited', 'bearbeitet', ...CHROME_WORDS],
    );
  });

  it('keeps a sentence that begins with "Edited" and a note with neither a name nor a date', () => {
    const notes = ['Edited the settings file and the lathe started again, thanks to all of you.', 'Edited', '', ''];
    const html = page(`<div class="thread"><h1>Lathe question</h1><div class="block-body">${notes.map((n, i) => post(i + 1, n)).join('')}</div></div>`);
    expectOnly(md(html), ['Edited the settings file', 'Post number 4 answers'], CHROME_WORDS);
  });
});

describe('page: main content of a thread, its posters\u2019 presence and code boxes\u2019 controls', () => {
  it('leaves out "Offline", "Logged" and "Code: Select all" blocks found twice or more, not such words in a sentence', () => {
    const foot = (i: number) =>
      `<div class="postfoot"><div class="postfootleft"><p><span>${i % 2 ? 'Offline' : 'Online'}</span></p></div><div class="smalltext">Logged</div></div>`;
    const code = `<div class="codebox"><p>Code: <a href="#" onclick="selectCode(this); return false;">Select all</a></p><pre><code>sudo pacman -Syu</code></pre></div>`;
    const post = (i: number) =>
      `<div class="post" id="p${i}"><div class="postbody"><p>Post number ${i} answers the question with its own words and details.</p>${i === 2 ? '<p>I was offline all week, sorry.</p>' : ''}${code}</div>${foot(i)}</div>`;
    const html = page(`<div class="thread"><h1>Lathe question</h1><div class="block-body">${[1, 2, 3, 4].map(post).join('')}</div></div>`);
    expect(findMainContent(html).type).to.equal('forum');
    expectOnly(
      md(html),
      ['Lathe question', 'Post number 1 answers', 'Post number 4 answers', 'I was offline all week', 'sudo pacman'],
      ['Offline\n', 'Online', 'Logged', 'Select all', ...CHROME_WORDS],
    );
  });
});

describe('page: main content of a thread, the box of members viewing it', () => {
  it('leaves out the block under "Users who are viewing this thread"', () => {
    const post = (i: number) =>
      `<article class="message message--post" id="post-${i}"><div class="message-content"><p>Post number ${i} answers the question with its own words and details.</p></div></article>`;
    const viewers = `<div class="block"><h3 class="block-minorHeader">Users who are viewing this thread</h3><div class="block-body"><ul class="listInline"></ul></div>
      <div class="block-footer"><span class="block-footer-counter">Total: 2 (members: 0, guests: 2)</span></div></div>`;
    const html = page(`<div class="thread"><h1>Lathe question</h1><div class="block-body">${[1, 2, 3, 4].map(post).join('')}</div>${viewers}</div>`);
    expect(findMainContent(html).type).to.equal('forum');
    expectOnly(md(html), ['Lathe question', 'Post number 1 answers', 'Post number 4 answers'], ['viewing this thread', 'guests: 2', ...CHROME_WORDS]);
  });
});
