// Main content: a thread's short reply whose post body is mostly its date and quote links, and a
// services page's grid of described link cards on a page typed an article only for an `<article>`
// element in it (link-blocks.ts).
import { expect } from 'chai';
import { findMainContent } from '../src/page/main-content.ts';
import { CHROME_WORDS, expectOnly, md, page, para } from './main-content-pages.ts';

const forumLd = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"DiscussionForumPosting","headline":"Kettle"}</script>`;

const post = (n: number, user: string, body: string) => `<div class="message">
  <div class="message-user"><a href="/members/${user}">${user}</a><div class="user-extras">Joined Jun 29, 2016 · Messages 11 · Reaction score 10</div></div>
  <div class="message-main"><div class="message-head"><a href="/threads/kettle.1/post-${n}">Jul ${18 + n}, 2024</a> <a href="/threads/kettle.1/post-${n}">#${n}</a></div>
    <div class="message-body">${body}</div></div></div>`;

describe('page: main content of a thread with a short reply', () => {
  it("keeps a short reply whose post body is mostly its date links, the posts' bodies being prose", () => {
    const long = (s: string) => `<p>${s} The kettle clicks off too early every morning, and descaling it twice did not change a thing about it.</p>`;
    const posts = [post(1, 'ann', long('First.')), post(2, 'bert', 'NIH 7/18'), post(3, 'cy', long('Third.')), post(4, 'dora', long('Fourth.'))].join('');
    const html = page(`<div id="main"><h1>Kettle switches off early</h1><div class="thread">${posts}</div></div>`, forumLd);
    expect(findMainContent(html).type).to.equal('forum');
    expectOnly(md(html), ['First. The kettle', 'NIH 7/18', 'Fourth. The kettle'], ['#2', ...CHROME_WORDS]);
  });

  it('still leaves out a link block whose like blocks are links in most posts', () => {
    const sig = (u: string) => `<div class="message-sig"><a href="/members/${u}/site">My blog about kettles</a> <a href="/members/${u}/shop">shop</a></div>`;
    const body = (s: string) => `<p>${s} The kettle clicks off too early every morning, and descaling it twice did not change a thing.</p>`;
    const posts = ['ann', 'bert', 'cy', 'dora'].map((u, i) => post(i + 1, u, body(u.toUpperCase()) + sig(u))).join('');
    const html = page(`<div id="main"><h1>Kettle switches off early</h1><div class="thread">${posts}</div></div>`, forumLd);
    expectOnly(md(html), ['ANN The kettle', 'DORA The kettle'], ['My blog about kettles']);
  });
});

const card = (href: string, title: string, text: string) => `<div class="col"><a href="${href}"><div class="card"><div class="card-text">
  <h3>${title}</h3><p class="small">${text}</p></div><div class="card-link"><span>Learn More</span></div></div></a></div>`;

describe('page: main content of a services page with an <article> element and no declared type', () => {
  it('keeps the grid of described link cards, as on a services page', () => {
    const html = page(`<div id="content"><h1>HR consulting</h1><div class="intro">${para('Consulting', 8)}</div>
      <section class="module-services"><h2>HR consulting services</h2><div class="row">
        ${card('/hr/transition', 'Career transition', 'Consulting and an online career portal to help your people through a career transition.')}
        ${card('/hr/relations', 'Employee relations', 'Training for managers and supervisors to improve employee relations and reduce turnover.')}
        ${card('/hr/compliance', 'HR compliance', 'Full human resources check-ups that find the regulations that apply and the practices to follow.')}
        ${card('/hr/technology', 'HR technology', 'Cloud-based HR solutions for people tracking, employee services and payroll for your team.')}
      </div></section>
      <article class="testimonial"><p>They helped us through a hard year. A client in Birmingham</p></article></div>`);
    expect(findMainContent(html).type).to.equal('article');
    expectOnly(md(html), ['HR consulting services', 'Career transition', 'Cloud-based HR solutions', 'Consulting paragraph 1'], CHROME_WORDS);
  });

  it("leaves such cards out of a page declared an article (its 'read next' teasers)", () => {
    const ld = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","headline":"HR"}</script>`;
    const html = page(
      `<div id="content"><article><h1>HR consulting</h1>${para('Consulting', 6)}</article>
      <section class="more"><h2>Read next</h2><div class="row">
        ${card('/hr/transition', 'Career transition', 'Consulting and an online career portal to help your people through a career transition.')}
        ${card('/hr/relations', 'Employee relations', 'Training for managers and supervisors to improve employee relations and reduce turnover.')}
        ${card('/hr/compliance', 'HR compliance', 'Full human resources check-ups that find the regulations that apply and the practices to follow.')}
      </div></section></div>`,
      ld,
    );
    expectOnly(md(html), ['Consulting paragraph 6'], ['Cloud-based HR', 'Career transition']);
  });
});

const reply = (n: number, user: string, text: string) => `<div class="post">
  <div class="profile"><div class="username"><a href="/Profile/${user}">${user}</a></div><div class="location">La Grange, Texas</div>
    <div class="postBadge badge"><span class="badgeText">${n * 1000 + 239} posts</span></div>
    <div class="votesBadge badge"><span class="badgeText">${n * 10 + 5} helpful votes</span></div></div>
  <div class="postBody"><p>${text}</p></div></div>`;

describe('page: main content of a thread whose opening post sits apart from the replies', () => {
  const text = (s: string) => `${s} Thank you for the trip report, I love a good egg sandwich and the trains were on time every day.`;
  const html = page(`<div id="main"><h1>Tips from a first time visitor</h1><div class="topic">
    <div class="first-wrap">${reply(1, 'poppy', text('Opening.') + ' ' + para('Trip', 6))}</div>
    ${['ann', 'bert', 'cy', 'dora'].map((u, i) => reply(i + 2, u, text(u.toUpperCase()))).join('')}</div></div>`);

  it('types a page of posts each named `post` a forum, the opening one in a wrapper of its own', () => {
    expect(findMainContent(html).type).to.equal('forum');
  });

  it("leaves out the posters' count badges ('9,239 posts', '105 helpful votes'), not a count in a post", () => {
    const out = md(html);
    expectOnly(out, ['Opening. Thank you', 'DORA Thank you', 'Trip paragraph 6'], ['posts', 'helpful votes', ...CHROME_WORDS]);
    const counted = page(`<div id="main"><h1>Tips</h1><div class="topic">
      ${['ann', 'bert', 'cy', 'dora'].map((u, i) => reply(i + 2, u, text(u.toUpperCase()) + '</p><p>We wrote <span>2 reviews</span> of the inn.')).join('')}</div></div>`);
    expect(md(counted)).to.include('2 reviews');
  });
});

describe('page: main content of a services page whose feature cards carry an icon', () => {
  const feature = (href: string, title: string, text: string, img: string) =>
    `<a href="${href}" class="feature-card">${img}<h3>${title}</h3><p>${text}</p></a>`;
  const html = (img: (n: string) => string) =>
    page(`<main><section class="hero"><h1>The code editor</h1>${para('Editor', 1)}</section>
      <section class="about">${para('About', 4)}</section>
      <section class="rich-features"><h2>Code with rich features</h2><div class="feature-grid">
        ${feature('/docs/terminal', 'Integrated terminal', "Use your favorite shell whether it's zsh, pwsh, or git bash, all inside the editor.", img('terminal'))}
        ${feature('/docs/debugging', 'Run code', 'Run and debug your code without leaving your editor, with breakpoints and a console.', img('debug'))}
        ${feature('/docs/scm', 'Version control', 'Built-in support for git and many other source control providers, side by side with your code.', img('git'))}
      </div></section></main>`);

  it('keeps described link cards whose image is an icon (an SVG, or named an icon)', () => {
    expectOnly(
      md(html((n) => `<img src="/assets/icons/codicon-${n}.svg" alt="${n} icon">`)),
      ['Integrated terminal', 'Built-in support for git'],
      CHROME_WORDS,
    );
    expectOnly(md(html((n) => `<img src="/assets/${n}.png" class="card-icon" alt="">`)), ['Integrated terminal', 'Built-in support for git'], CHROME_WORDS);
  });

  it("leaves out such cards carrying a photo (a blog's teasers)", () => {
    expectOnly(
      md(html((n) => `<img src="/blog/${n}-cover.jpg" alt="A desk with a laptop">`)),
      ['About paragraph 4'],
      ['Integrated terminal', 'Built-in support for git'],
    );
  });
});

describe("page: main content of a services page whose cards' title and text sit in a wrapper", () => {
  it('keeps link cards each a wrapper of spans, a title then its description', () => {
    const entry = (href: string, title: string, text: string) =>
      `<div class="item"><a class="link" href="${href}"><div class="flex"><span class="t">${title}</span><div class="gap"></div><span class="d">${text}</span><span class="date">Feb 4, 2026</span></div></a></div>`;
    const html = page(`<main><section class="hero"><h1>Plan and build products</h1>${para('Plan', 1)}</section>
      <section class="about">${para('About', 4)}</section>
      <div class="changes"><h2>Changelog</h2><div class="list">
        ${entry('/changelog/deeplink', 'Deeplink to coding tools', 'Starting an issue used to mean creating a feature branch by hand; now the context comes with it.')}
        ${entry('/changelog/filters', 'Advanced filters', 'Refine your searches, views and dashboards with filters that combine several conditions at once.')}
        ${entry('/changelog/status', 'Time in status', 'Time spent in each status is now tracked and shown wherever an issue appears in the app.')}
      </div></div></main>`);
    expectOnly(md(html), ['Deeplink to coding tools', 'Refine your searches', 'Time in status'], CHROME_WORDS);
  });
});

describe("page: main content of a thread with each post's tools", () => {
  it("leaves out 'Link to post', 'Share on other sites' and 'Report inappropriate content' under every post, not in a sentence", () => {
    const tools = `<ul class="tools"><li><a href="#">Link to post</a></li><li><a href="#">Share on other sites</a></li></ul><div class="report"><span>Report inappropriate content</span></div>`;
    const body = (s: string) => `<p>${s} The kettle clicks off too early every morning, and descaling it twice did not change a thing.</p>`;
    const posts = ['ann', 'bert', 'cy'].map((u, i) => post(i + 1, u, body(u.toUpperCase()) + tools)).join('');
    const said = post(4, 'dora', body('DORA') + '<p>Use the link to post your photos here.</p>');
    const html = page(`<div id="main"><h1>Kettle switches off early</h1><div class="thread">${posts}${said}</div></div>`, forumLd);
    expectOnly(
      md(html),
      ['ANN The kettle', 'DORA The kettle', 'the link to post your photos'],
      ['Link to post', 'Share on other sites', 'Report inappropriate'],
    );
  });
});

describe("page: main content of a thread whose replies repeat its title with 'Re:'", () => {
  it("leaves out each reply's 'Re: <thread title>' heading, not one naming another subject", () => {
    const body = (s: string) => `<p>${s} The kettle clicks off too early every morning, and descaling it twice did not change a thing.</p>`;
    const reply = (n: number, u: string, head: string, text: string) => post(n, u, `<h3><a href="/t/1#p${n}">${head}</a></h3>${text}`);
    const html = page(
      `<div id="main"><h1>Kettle switches off early</h1><div class="thread">
        ${post(1, 'ann', body('ANN'))}
        ${reply(2, 'bert', 'Re: Kettle switches off early', body('BERT'))}
        ${reply(3, 'cy', 'Re: Kettle switches off…', body('CY'))}
        ${reply(4, 'dora', 'Re: Descaling with vinegar', body('DORA'))}</div></div>`,
      forumLd,
    );
    expectOnly(md(html), ['BERT The kettle', 'CY The kettle', 'Re: Descaling with vinegar'], ['Re: Kettle switches off']);
  });

  it("compares with the document's <title> when the thread has no <h1>", () => {
    const body = (s: string) => `<p>${s} The kettle clicks off too early every morning, and descaling it twice did not change a thing.</p>`;
    const reply = (n: number, u: string, text: string) => post(n, u, `<h3><a href="/t/1#p${n}">Re: Kettle switches off early</a></h3>${text}`);
    const html = page(
      `<div id="main"><h2>Kettle switches off early</h2><div class="thread">
        ${post(1, 'ann', body('ANN'))}${reply(2, 'bert', body('BERT'))}${reply(3, 'cy', body('CY'))}</div></div>`,
      forumLd,
    ).replace('<title>T</title>', '<title>Kettle switches off early - Kitchen Board</title>');
    expectOnly(md(html), ['BERT The kettle', 'CY The kettle'], ['Re: Kettle switches off']);
  });
});
