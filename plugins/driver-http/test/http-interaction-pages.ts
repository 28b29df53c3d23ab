// The fixture pages of driver-http-interaction.test.ts: plain-HTML pages (links, GET/POST forms,
// fields, <details>, <noscript>, scripted controls) that the http driver browses without JavaScript.

export const doc = (title: string, body: string, head = '') => `<!doctype html><html><head><title>${title}</title>${head}</head><body>${body}</body></html>`;
export const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export const PAGES: Record<string, string> = {
  // Everything the outline shows or hides, the same without and with a browser (except <noscript>,
  // which a browser running scripts hides and the http driver shows: see the /fallback case).
  '/outline': doc(
    'Outline',
    `<h1>Shop</h1><p>Welcome, <a href="cart">your cart</a>.</p>
    <nav><ul><li><a href="/c/books" id="books">Books</a></li><li><a href="/c/music" data-testid="music">Music</a></li></ul></nav>
    <form action="/search"><label for="q">Search</label><input id="q" name="q" value="tea">
      <input type="hidden" name="token" value="t0k"><input type="checkbox" id="stock" name="stock" checked><label for="stock">In stock</label>
      <select name="sort"><option value="price">Price</option><option value="name" selected>Name</option></select>
      <textarea name="note" placeholder="Note"></textarea><button>Find</button></form>
    <div hidden><a href="/hidden-attr">Hidden attr</a></div><p style="display: none"><a href="/display-none">Display none</a></p>
    <p style="visibility:hidden"><a href="/invisible">Invisible</a></p><template><a href="/template">Template</a></template>
    <details><summary>Shipping</summary><p>Ships in 2 days. <a href="/shipping">Rates</a></p></details>
    <table><tr><th>Item</th><td><a href="/item/1">First item</a></td></tr></table>
    <div role="tab">Reviews</div><span onclick="go()">Scripted</span><a href="/empty"></a>
    <my-widget><a href="/custom">In a custom element</a></my-widget><a href="/svg"><svg width="10" height="10"><title>Icon</title></svg></a>
    <p>x = <math><mi>x</mi></math></p><button aria-label="Close">×</button><label>Email <input name="email" type="email"></label>
    <input type="submit" value="Go"><input type="image" alt="Pay" src="/pay.png"><span id="lbl">Quantity</span><input aria-labelledby="lbl" type="number" value="2">
    <a href="/logo"><img alt="Logo" src="/logo.png"></a><div contenteditable>Edit me</div>
    <select name="many" multiple size="3"><optgroup label="G"><option>Alpha</option><option selected>Beta</option></optgroup></select>
    <input type="radio" name="r" aria-label="Radio"><input type="range" aria-label="Level"><input type="search" placeholder="Find it">
    <p class="hidden"><a href="/by-class">Hidden by class</a></p><div class="panel"><a href="/panel-1">Panel one</a></div>
    <div class="panel active"><a href="/panel-2">Panel two</a></div><p id="ghost"><a href="/ghost">Ghost</a></p>
    <p class="forced" style="display: block"><a href="/forced">Forced</a></p><p class="wide"><a href="/wide">Wide only</a></p>
    <table class="grid"><caption>Sizes</caption><tr><td><a href="/same">Same</a></td><td><a href="/same">Same</a></td></tr><tr><td><button>Pick</button></td></tr></table>`,
    `<base href="/shop/"><style>/* a comment { display: none } */ .hidden { display: none } .panel { display: none } div.panel.active { display: block }
    #ghost { visibility: hidden } .forced { display: none !important } @media (max-width: 10px) { .wide { display: none } }</style>`,
  ),
  // Text as the outline renders it: blocks, lists, tables, entities, whitespace, line breaks.
  '/article': doc(
    'Article &amp; more',
    `<header><nav><a href="/">Home</a> &rsaquo; <a href="/blog">Blog</a></nav></header>
    <main><article><h2>A   title&nbsp;with  spaces</h2><p>First <em>para</em>graph,<br>second line &amp; <code>code</code>.</p>
    <blockquote>Quoted <strong>text</strong></blockquote><pre>  keep
  lines  </pre><dl><dt>Term</dt><dd>Definition <a href="#fn1">[1]</a></dd></dl>
    <ol><li>One<ul><li>Nested <a href="/n">link</a></li></ul></li><li>Two</li></ol>
    <fieldset><legend>Options</legend><label><input type="checkbox" name="o1"> First option</label><label><input type="radio" name="o2" value="b" checked> B</label></fieldset>
    <table><thead><tr><th>Name</th><th>Price</th></tr></thead><tr><td>Tea</td><td>3 &euro;</td></tr></table>
    <p>Read <a href="/more" title="More about it">more</a> or <a href="/x" aria-label="Close dialog">×</a>.</p></article>
    <aside><h3>Related</h3><a href="/r1"><img src="/i.png" alt="Related one"></a> <a href="/r2">Related two</a></aside></main>
    <footer><small>&copy; 2026</small> <a href="mailto:a@b.c">Mail</a></footer>`,
  ),
  '/links': doc(
    'Links',
    `<a id="rel" href="next?p=2">Next</a> <a id="frag" href="#top">Top</a> <a id="hash" href="#">Menu</a>
    <a id="js" href="javascript:void(0)">Script</a> <a id="onclick" href="/page" onclick="return false">Tracked</a>
    <a id="noref" href="/page" rel="noreferrer">No referrer</a> <a id="wrapped" href="/page"><span id="inner">Wrapped</span></a>
    <button id="plain" type="button">Plain button</button> <button id="orphan">Orphan submit</button>
    <div id="tab" role="button">Tab</div> <p id="para">Just text</p> <input id="lonely" name="lonely">`,
    '<base href="/dir/">',
  ),
  '/dir/next': doc('Next', '<p id="p">page two</p>'),
  '/search-page': doc(
    'Search',
    `<form action="/results?src=form&amp;page=9" id="f">
    <input id="q" name="q"><select id="cat" name="cat"><option value="">All</option><option value="b">Books</option><option>Music</option></select>
    <input type="submit" id="go" name="action" value="Search"><input type="submit" id="lucky" name="action" value="Lucky" formaction="/lucky"></form>`,
  ),
  '/post-page': doc(
    'Post',
    `<form id="order" method="post" action="/order">
    <input id="name" name="name" value="Ada"><input id="qty" name="qty" type="number" value="1" maxlength="2">
    <select id="extras" name="extras" multiple><option value="gift">Gift wrap</option><option value="card" selected>Card</option><option value="ice" disabled>Ice</option></select>
    <input type="radio" id="r-std" name="ship" value="standard" checked><label for="r-std">Standard</label>
    <input type="radio" id="r-exp" name="ship" value="express"><label for="r-exp">Express</label>
    <label><input type="checkbox" id="news" name="news" value="yes"> Newsletter</label>
    <fieldset disabled><input name="ghost" value="never sent"></fieldset><input name="off" value="x" disabled>
    <textarea id="msg" name="msg">Hi</textarea>
    <button id="send" name="op" value="send">Send</button>
    <button id="keep" formaction="/keep" formmethod="post">Keep (307)</button>
    <button id="multi" formaction="/echo" formenctype="multipart/form-data">Multipart</button></form>
    <input id="outside" name="outside" value="joined" form="order">`,
  ),
  '/enter-page': doc(
    'Enter',
    `<a id="frag" href="#one">To the form</a><form action="/results" id="one"><input id="only" name="q"></form>
    <form action="/results" id="two"><input id="a" name="a"><input id="b" name="b"></form>
    <form action="/results" id="three" onsubmit="return check()"><input id="c" name="c"><button>Go</button></form>`,
  ),
  '/fallback': doc(
    'Fallback',
    `<div id="app"></div><noscript><p>This page works best with JavaScript.</p><a href="/page" id="all">All results</a></noscript>
    <form action="/results"><select id="sort" name="sort" onchange="this.form.submit()"><option>new</option><option>old</option></select><noscript><button id="go">Go</button></noscript></form>`,
  ),
  '/login': doc('Login', '<form method="post" action="/do-login"><input id="user" name="user"><button id="in">Log in</button></form>'),
  '/required': doc(
    'Required',
    `<form action="/results"><input id="who" name="who" required><select id="size" name="size" required><option value="">Pick</option><option>L</option></select>
    <input type="radio" id="yes" name="ok" value="yes" required><input type="radio" name="ok" value="no"><button id="send">Send</button><button id="skip" formnovalidate>Skip checks</button></form>`,
  ),
};
