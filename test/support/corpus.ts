// A deterministic corpus of boilerplate-heavy pages for the reduction/markdown benchmark and tests:
// news articles (inline JS/CSS/SVG, mega menus, cookie banners, pixels), product pages (JSON-LD,
// microdata), listings of 50 cards, docs pages with tables, forum threads and one ~2 MB catalog.
// Each page lists its target facts: strings a caller could ask for, exactly as they should survive.

export type CorpusPage = { name: string; kind: string; url: string; html: string; facts: string[] };

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'the of and to in is that for it as with was on be by at this from are or an have not which one had ' +
  'were all their there been has more when will would who can said new market city council report year people ' +
  'policy growth energy water local plan public service data study company price team season river school ' +
  'project support program health project region transport housing budget change early later under around ' +
  'between during against among several million percent board members officials residents expected announced'
).split(' ');
const ADJ = 'blue red classic slim organic wireless compact premium vintage lightweight waterproof ergonomic'.split(' ');
const NOUN = 'jacket headphones backpack kettle lamp sneakers watch blender desk chair speaker tent mug'.split(' ');
const NAMES = 'Ava Liam Noah Emma Mia Lucas Zoe Omar Ines Kenji Priya Mateo Sofia Ravi Hana Felix Nora Ivan'.split(' ');
const SURNAMES = 'Garcia Chen Okafor Novak Silva Tanaka Dubois Kowalski Haddad Larsen Moreau Patel Rossi'.split(' ');

type R = () => number;
const pick = <T>(r: R, a: T[]): T => a[Math.floor(r() * a.length)];
const int = (r: R, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
const words = (r: R, n: number) => Array.from({ length: n }, () => pick(r, WORDS)).join(' ');
const sentence = (r: R) => {
  const s = words(r, int(r, 8, 20));
  return `${s[0].toUpperCase()}${s.slice(1)}.`;
};
const para = (r: R, n = int(r, 3, 6)) => Array.from({ length: n }, () => sentence(r)).join(' ');
const person = (r: R) => `${pick(r, NAMES)} ${pick(r, SURNAMES)}`;
const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
const price = (r: R) => `$${int(r, 5, 499)}.${String(int(r, 0, 99)).padStart(2, '0')}`;
const tw = (r: R) =>
  Array.from({ length: int(r, 6, 14) }, () =>
    pick(r, [
      'flex',
      'items-center',
      'justify-between',
      'px-4',
      'py-2',
      'md:px-6',
      'lg:grid-cols-4',
      'text-sm',
      'font-medium',
      'text-gray-700',
      'hover:text-gray-900',
      'rounded-lg',
      'shadow-sm',
      'border',
      'border-gray-200',
      'bg-white',
      'dark:bg-gray-800',
      'transition',
      'duration-150',
    ]),
  ).join(' ');
const svgIcon = (r: R) =>
  `<svg class="icon ${tw(r)}" viewBox="0 0 24 24" aria-hidden="true"><path d="${Array.from({ length: int(r, 8, 24) }, () => `M${int(r, 0, 24)}.${int(r, 0, 99)} ${int(r, 0, 24)}.${int(r, 0, 99)}L${int(r, 0, 24)} ${int(r, 0, 24)}`).join('')}Z"/></svg>`;

function css(r: R, rules: number): string {
  const props = [
    'display:flex',
    'margin:0 auto',
    'padding:4px 8px',
    'color:#1f2937',
    'font-size:14px',
    'line-height:1.5',
    'border-radius:8px',
    'box-shadow:0 1px 2px rgba(0,0,0,.05)',
    'transition:all .15s ease-in-out',
    'grid-template-columns:repeat(4,minmax(0,1fr))',
  ];
  let s = '';
  for (let i = 0; i < rules; i++)
    s += `.c-${i.toString(36)}-${int(r, 100, 999)}{${Array.from({ length: int(r, 2, 6) }, () => pick(r, props)).join(';')}}@media (min-width:768px){.md-${i}{${pick(r, props)}}}`;
  return `<style>${s}</style>`;
}

function scripts(r: R, kb: number): string {
  const state = JSON.stringify({ config: { features: Array.from({ length: kb * 12 }, (_, i) => ({ id: `f${i}`, on: r() > 0.5, v: words(r, 3) })) } });
  return `<script>(function(w,d,s,l,i){w[l]=w[l]||[];w[l].push({'gtm.start':new Date().getTime(),event:'gtm.js'});var f=d.getElementsByTagName(s)[0],j=d.createElement(s);j.async=true;j.src='https://www.googletagmanager.com/gtm.js?id='+i;f.parentNode.insertBefore(j,f);})(window,document,'script','dataLayer','GTM-AB12CD');</script>
<script>window.__APP_STATE__=${state};</script><script async src="/static/js/vendor.4f2a9c.js"></script>
<script>!function(f,b,e,v,n,t,s){if(f.fbq)return;n=f.fbq=function(){n.callMethod?n.callMethod.apply(n,arguments):n.queue.push(arguments)};}(window,document,'script');fbq('init','123456789');fbq('track','PageView');</script>`;
}

function head(r: R, title: string, url: string, extra = ''): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} | Example</title><meta name="description" content="${sentence(r)}"><meta property="og:title" content="${title}">
<meta property="og:url" content="${url}"><meta name="twitter:card" content="summary_large_image"><link rel="canonical" href="${url}">
<link rel="preload" href="/fonts/inter.woff2" as="font" crossorigin><link rel="stylesheet" href="/static/css/main.css">
${css(r, int(r, 250, 450))}${scripts(r, int(r, 15, 40))}${extra}</head>`;
}

const ICONS = (r: R) =>
  `<svg style="display:none" xmlns="http://www.w3.org/2000/svg">${Array.from({ length: 16 }, (_, i) => `<symbol id="i${i}" viewBox="0 0 24 24">${svgIcon(r)}</symbol>`).join('')}</svg>`;

function chrome(r: R, host: string): { top: string; bottom: string } {
  const cats = Array.from({ length: 8 }, () => pick(r, NOUN));
  const menu = cats
    .map(
      (c) =>
        `<li class="${tw(r)}"><a href="/c/${c}" data-gtm-click="nav_${c}" class="${tw(r)}">${c}${svgIcon(r)}</a><ul class="mega-panel">${Array.from(
          { length: 14 },
          () => {
            const w = `${pick(r, ADJ)} ${c}`;
            return `<li><a href="/c/${c}/${slug(w)}?utm_source=nav" class="${tw(r)}">${w}</a></li>`;
          },
        ).join('')}</ul></li>`,
    )
    .join('');
  const top = `<body class="antialiased">${ICONS(r)}<a class="skip-link" href="#main">Skip to content</a>
<div class="promo-strip ${tw(r)}">Free shipping over $50 — <a href="/shipping">details</a></div>
<header class="site-header ${tw(r)}"><a href="/" class="logo"><img src="/img/logo.svg" alt="${host} logo"></a>
<form role="search" action="/search"><input type="search" name="q" placeholder="Search"><button>${svgIcon(r)}Search</button></form>
<nav class="main-nav" aria-label="Main"><ul>${menu}</ul></nav><nav class="mobile-nav" aria-hidden="true"><ul>${menu}</ul></nav></header>`;
  const cols = Array.from(
    { length: 5 },
    () =>
      `<div class="footer-col"><h4>${words(r, 2)}</h4><ul>${Array.from({ length: 10 }, () => {
        const w = words(r, 2);
        return `<li><a href="/${slug(w)}">${w}</a></li>`;
      }).join('')}</ul></div>`,
  ).join('');
  const bottom = `<footer class="site-footer ${tw(r)}">${cols}<div class="social">${['facebook', 'x', 'instagram', 'youtube'].map((s) => `<a href="https://${s}.com/example" aria-label="${s}">${svgIcon(r)}</a>`).join('')}</div>
<p>© 2025 ${host}. All rights reserved.</p></footer>
<div id="onetrust-banner-sdk" class="otFlat" role="region" aria-label="Cookie banner"><p>We and our 812 partners use cookies and similar technologies to store and access information on your device. ${para(r, 4)}</p>
<button id="onetrust-accept-btn-handler">Accept all</button><button>Manage preferences</button><div class="ot-pc" style="display: none">${Array.from({ length: 6 }, () => `<h5>${words(r, 2)}</h5><p>${para(r, 3)}</p>`).join('')}</div></div>
<div class="modal newsletter-modal" aria-hidden="true"><h3>Get 10% off your first order</h3><p>${sentence(r)}</p><input type="email"><button>Subscribe</button></div>
<noscript><img height="1" width="1" style="display:none" src="https://www.facebook.com/tr?id=123456789&ev=PageView&noscript=1"></noscript>
<img src="https://t.example-ads.com/pixel.gif?cb=${int(r, 1e5, 1e6)}" width="1" height="1" alt="">
<iframe src="https://www.googletagmanager.com/ns.html?id=GTM-AB12CD" height="0" width="0" style="display:none;visibility:hidden"></iframe>
<script src="/static/js/app.9c1d.js"></script></body></html>`;
  return { top, bottom };
}

function news(seed: number): CorpusPage {
  const r = rng(seed);
  const host = 'news.example.com';
  const headline = `${sentence(r).slice(0, 60).trim()} ${seed}`;
  const url = `https://${host}/2025/03/${slug(headline)}`;
  const author = person(r);
  const date = `March ${int(r, 1, 28)}, 2025`;
  const stat = `${int(r, 10, 90)}.${int(r, 1, 9)} percent`;
  const hero = `/media/2025/03/hero-${seed}.jpg`;
  const links = [`https://data.example.org/reports/${seed}?format=pdf`, `/2025/02/${slug(words(r, 4))}`];
  const c = chrome(r, host);
  const tag = pick(r, WORDS);
  const body = Array.from({ length: int(r, 9, 14) }, (_, i) =>
    i === 2
      ? `<p>${sentence(r)} The figure rose to ${stat} last year, according to <a href="${links[0]}&utm_source=newsletter&utm_medium=email">the annual report</a>. ${sentence(r)}</p>`
      : i === 5
        ? `<p>${sentence(r)} <a href="${links[1]}?fbclid=IwAR3xYz">Earlier coverage</a> explained why.</p><div class="ad-slot" data-ad-unit="mid"><span>Advertisement</span></div>`
        : i === 7
          ? `<blockquote><p>“${sentence(r)}”</p></blockquote>`
          : `<p>${para(r)}</p>`,
  ).join('\n');
  const html = `${head(r, headline, url, `<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@type': 'NewsArticle', headline, datePublished: `2025-03-0${(seed % 9) + 1}T08:00:00Z`, author: { '@type': 'Person', name: author }, image: [`https://${host}${hero}`] })}</script>`)}${c.top}
<main id="main"><article class="${tw(r)}"><header><h1>${headline}</h1><p class="byline">By <a href="/authors/${slug(author)}">${author}</a> · <time datetime="2025-03-01">${date}</time></p></header>
<div class="share-bar">${['Share', 'Tweet', 'Email'].map((s) => `<button data-analytics-id="share_${s}">${svgIcon(r)}${s}</button>`).join('')}</div>
<figure><img src="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7" data-src="${hero}" data-srcset="${hero} 800w" alt="${words(r, 5)}"><figcaption>${sentence(r)}</figcaption></figure>
${body}<ul class="tags"><li><a href="/tag/${tag}">${tag}</a></li></ul></article>
<aside class="related"><h2>More stories</h2>${Array.from({ length: 6 }, () => {
    const t = words(r, 6);
    return `<a href="/2025/${slug(t)}"><img src="/thumbs/${slug(t)}.jpg" alt="">${t}</a>`;
  }).join('')}</aside></main>${c.bottom}`;
  return {
    name: `news-${seed}`,
    kind: 'news',
    url,
    html,
    facts: [headline, author, date, stat, `https://${host}${hero}`, links[0], `https://${host}${links[1]}`, tag],
  };
}

function product(seed: number): CorpusPage {
  const r = rng(seed);
  const host = 'shop.example.com';
  const name = `${pick(r, ADJ)} ${pick(r, NOUN)} ${seed}`.replace(/^./, (x) => x.toUpperCase());
  const url = `https://${host}/p/${slug(name)}`;
  const p = price(r);
  const old = price(r);
  const sku = `SKU-${seed}${int(r, 1000, 9999)}`;
  const gtin = String(int(r, 1e11, 9e11)) + seed;
  const img = `https://cdn.example.com/p/${seed}/main-1200.jpg`;
  const c = chrome(r, host);
  const specs = Array.from({ length: 12 }, () => [words(r, 2), `${int(r, 1, 500)} ${pick(r, ['mm', 'g', 'W', 'h', 'L'])}`]);
  const reviewers = Array.from({ length: 5 }, () => person(r));
  const micro = seed % 2 === 0;
  const ld = {
    '@context': 'https://schema.org/',
    '@type': 'Product',
    name,
    sku,
    gtin13: gtin,
    image: [img],
    offers: { '@type': 'Offer', price: p.slice(1), priceCurrency: 'USD', availability: 'https://schema.org/InStock' },
    aggregateRating: { '@type': 'AggregateRating', ratingValue: '4.6', reviewCount: '128' },
  };
  const html = `${head(r, name, url, `<script type="application/ld+json">${JSON.stringify(ld)}</script>`)}${c.top}
<main><nav class="breadcrumbs" aria-label="Breadcrumb"><a href="/">Home</a> / <a href="/c/all">All</a></nav>
<div class="product" ${micro ? 'itemscope itemtype="https://schema.org/Product"' : ''}><div class="gallery"><img src="${img}" srcset="${img.replace('1200', '600')} 600w, ${img} 1200w" alt="${name}" ${micro ? 'itemprop="image"' : ''}>
${Array.from({ length: 5 }, (_, i) => `<button class="thumb"><img src="https://cdn.example.com/p/${seed}/t${i}.jpg" alt="view ${i}"></button>`).join('')}</div>
<div class="buy-box"><h1 ${micro ? 'itemprop="name"' : ''}>${name}</h1><div class="rating">${svgIcon(r).repeat(5)}<span>4.6 (128 reviews)</span></div>
<div class="price" ${micro ? 'itemprop="offers" itemscope itemtype="https://schema.org/Offer"' : ''}><del>${old}</del> <span class="now" ${micro ? `itemprop="price" content="${p.slice(1)}"` : ''}>${p}</span>${micro ? '<meta itemprop="priceCurrency" content="USD"><link itemprop="availability" href="https://schema.org/InStock">' : ''}</div>
<p>SKU: <span>${sku}</span></p><label>Size <select name="size"><option>S</option><option>M</option><option>L</option><option>XL</option></select></label>
<input type="hidden" name="product_id" value="${seed}"><button class="add-to-cart ${tw(r)}" data-gtm-click="atc">${svgIcon(r)}Add to cart</button></div>
<section class="description"><h2>Description</h2><p>${para(r)}</p><p>${para(r)}</p></section>
<section><h2>Specifications</h2><table class="specs"><tbody>${specs.map(([k, v]) => `<tr><th>${k}</th><td>${v}</td></tr>`).join('')}</tbody></table></section>
<section class="reviews"><h2>Reviews</h2>${reviewers.map((n) => `<div class="review ${tw(r)}"><strong>${n}</strong> <span>${svgIcon(r).repeat(5)}</span><p>${para(r, 2)}</p></div>`).join('')}</section></div>
<section class="carousel"><h2>Customers also bought</h2>${Array.from({ length: 8 }, () => {
    const n = `${pick(r, ADJ)} ${pick(r, NOUN)}`;
    return `<div class="card ${tw(r)}"><a href="/p/${slug(n)}"><img src="https://cdn.example.com/p/${slug(n)}.jpg" alt="${n}"></a><a href="/p/${slug(n)}">${n}</a><span>${price(r)}</span></div>`;
  }).join('')}</section></main>${c.bottom}`;
  return {
    name: `product-${seed}`,
    kind: 'product',
    url,
    html,
    facts: [name, p, old, sku, gtin, img, specs[3][0], specs[3][1], specs[9][1], reviewers[2], 'InStock'],
  };
}

function cards(r: R, n: number, seed: number): { html: string; facts: string[] } {
  const facts: string[] = [];
  let html = '';
  for (let i = 0; i < n; i++) {
    const t = `${pick(r, ADJ)} ${pick(r, NOUN)} ${seed}-${i}`.replace(/^./, (x) => x.toUpperCase());
    const p = price(r);
    const href = `/p/${slug(t)}`;
    const img = `https://cdn.example.com/c/${seed}/${i}.webp`;
    html += `<li class="product-card ${tw(r)}" data-product-id="${seed}${i}" data-analytics='{"list":"category","pos":${i}}'><a href="${href}?utm_source=listing&utm_campaign=cat" class="${tw(r)}"><img src="data:image/svg+xml,%3Csvg%3E%3C/svg%3E" data-src="${img}" alt="${t}" loading="lazy"></a>
<div class="${tw(r)}"><h3 class="${tw(r)}"><a href="${href}">${t}</a></h3><div class="rating" aria-label="4 stars">${svgIcon(r).repeat(5)}<span>(${int(r, 3, 900)})</span></div>
<p class="price ${tw(r)}"><span class="sr-only">Price</span>${p}</p>${i % 7 === 0 ? '<span class="badge">Sale</span>' : ''}<button class="${tw(r)}" data-gtm-click="quick_add">${svgIcon(r)}Quick add</button></div></li>\n`;
    facts.push(t, p, `https://shop.example.com${href}`, img);
  }
  return { html, facts };
}

function listing(seed: number, n = 50, stateKb = 0): CorpusPage {
  const r = rng(seed);
  const host = 'shop.example.com';
  const cat = pick(r, NOUN);
  const url = `https://${host}/c/${cat}?page=2`;
  const c = chrome(r, host);
  const list = cards(r, n, seed);
  const facets = Array.from({ length: 40 }, () => {
    const f = words(r, 2);
    return `<label class="${tw(r)}"><input type="checkbox" name="f" value="${slug(f)}"> ${f} (${int(r, 1, 300)})</label>`;
  }).join('');
  const state = stateKb
    ? `<script id="__NEXT_DATA__" type="application/json">${JSON.stringify({ props: { items: Array.from({ length: stateKb * 4 }, (_, i) => ({ id: i, t: words(r, 6), img: `https://cdn.example.com/x/${i}.jpg` })) } })}</script>`
    : '';
  const html = `${head(r, `${cat} — page 2`, url)}${c.top}<main class="${tw(r)}"><aside class="filters"><h2>Filter</h2>${facets}</aside>
<section class="results"><h1>${cat[0].toUpperCase()}${cat.slice(1)}s</h1><p>${n * 3} results</p><select name="sort"><option>Featured</option><option>Price: low to high</option></select>
<ul class="grid ${tw(r)}">${list.html}</ul><nav class="pagination" aria-label="Pagination"><a href="/c/${cat}?page=1">Previous</a> <a href="/c/${cat}?page=3" rel="next">Next</a></nav></section></main>${state}${c.bottom}`;
  return {
    name: n > 50 ? `catalog-big-${seed}` : `listing-${seed}`,
    kind: n > 50 ? 'big' : 'listing',
    url,
    html,
    facts: [...list.facts, `https://${host}/c/${cat}?page=3`],
  };
}

function docs(seed: number): CorpusPage {
  const r = rng(seed);
  const host = 'docs.example.dev';
  const title = `${words(r, 3)} API reference ${seed}`.replace(/^./, (x) => x.toUpperCase());
  const url = `https://${host}/reference/${slug(title)}`;
  const c = chrome(r, host);
  const facts = [title];
  const toc = Array.from({ length: 90 }, () => {
    const t = words(r, 3);
    return `<li><a class="${tw(r)}" href="/reference/${slug(t)}">${t}</a></li>`;
  }).join('');
  const sections = Array.from({ length: 5 }, (_, s) => {
    const rows = Array.from({ length: 30 }, () => [
      `${pick(r, WORDS)}_${pick(r, WORDS)}`,
      pick(r, ['string', 'integer', 'boolean', 'string[]', 'object']),
      pick(r, ['null', 'true', '30', '"auto"', '100']),
      sentence(r),
    ]);
    facts.push(rows[4][0], rows[4][3], rows[11][0], `${rows[11][0]} | ${rows[11][1]}`);
    const code = `client.${rows[0][0]}({ limit: ${int(r, 1, 99)} })`;
    facts.push(code);
    return `<h2 id="s${s}">${words(r, 3)}</h2><p>${para(r)}</p><pre><code class="language-js"><span class="k">const</span> res = <span class="f">${code}</span>;</code></pre>
<table class="params"><thead><tr><th>Name</th><th>Type</th><th>Default</th><th>Description</th></tr></thead><tbody>${rows.map((row) => `<tr>${row.map((x, i) => (i === 0 ? `<td><code>${x}</code></td>` : `<td>${x}</td>`)).join('')}</tr>`).join('')}</tbody></table>`;
  }).join('\n');
  const html = `${head(r, title, url)}${c.top}<div class="layout"><nav class="sidebar" aria-label="Reference"><ul>${toc}</ul></nav>
<main><h1>${title}</h1><p>${para(r)}</p>${sections}</main><nav class="toc" aria-label="On this page"><ul>${toc.slice(0, 2000)}</ul></nav></div>${c.bottom}`;
  return { name: `docs-${seed}`, kind: 'docs', url, html, facts };
}

function forum(seed: number): CorpusPage {
  const r = rng(seed);
  const host = 'forum.example.net';
  const title = `${sentence(r).slice(0, 50).trim()} (${seed})`;
  const url = `https://${host}/t/${slug(title)}/${seed}`;
  const c = chrome(r, host);
  const facts = [title];
  const posts = Array.from({ length: 20 }, (_, i) => {
    const user = `${pick(r, NAMES).toLowerCase()}_${int(r, 10, 999)}`;
    const when = `2025-0${int(r, 1, 9)}-${int(r, 10, 28)} ${int(r, 10, 23)}:${int(r, 10, 59)}`;
    const votes = `${int(r, 0, 400)} votes`;
    const text = sentence(r);
    if (i % 3 === 0) facts.push(user, when, text, votes);
    return `<article class="post ${tw(r)}" id="p${i}"><div class="author"><a href="/u/${user}"><img src="/avatars/${user}.png" alt="${user}"></a><a href="/u/${user}" class="name">${user}</a><span>Joined ${int(r, 2010, 2024)} · ${int(r, 1, 5000)} posts</span></div>
<div class="body"><time datetime="${when}">${when}</time>${i % 4 === 1 ? `<blockquote>${sentence(r)}</blockquote>` : ''}<p>${text} ${para(r, int(r, 1, 4))}</p><p>${para(r, 2)}</p></div>
<div class="actions">${['Reply', 'Quote', 'Report'].map((a) => `<button>${svgIcon(r)}${a}</button>`).join('')}<span class="score">${votes}</span></div><div class="signature">${words(r, 8)}</div></article>`;
  }).join('\n');
  const html = `${head(r, title, url)}${c.top}<main><h1>${title}</h1>${posts}</main><aside class="similar"><h2>Similar threads</h2>${Array.from({ length: 10 }, () => `<a href="/t/${slug(words(r, 4))}">${words(r, 6)}</a>`).join('')}</aside>${c.bottom}`;
  return { name: `forum-${seed}`, kind: 'forum', url, html, facts };
}

/** The benchmark corpus: 25 pages, about 6 MB in all, one of them ~2 MB. */
export function buildCorpus(): CorpusPage[] {
  return [
    ...[1, 2, 3, 4, 5, 6].map(news),
    ...[11, 12, 13, 14, 15].map(product),
    ...[21, 22, 23, 24, 25].map((s) => listing(s)),
    ...[31, 32, 33, 34].map(docs),
    ...[41, 42, 43, 44].map(forum),
    listing(51, 440, 140),
  ];
}
