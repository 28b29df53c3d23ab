// URL helpers for page reduction: absolutize against the page (or <base>) URL, strip tracking query
// parameters, pick the real source of lazy-loaded images, and recognise tracking pixels.

const TRACKING_PARAM =
  /^(?:utm_[a-z_]+|fbclid|gclid|gclsrc|dclid|gbraid|wbraid|msclkid|mc_cid|mc_eid|_ga|_gl|_hsenc|_hsmi|hsctatracking|mkt_tok|yclid|igshid|twclid|ttclid|li_fat_id|scid|spm|ref_src|oly_anon_id|oly_enc_id|vero_id|wickedid|_openstat|rb_clickid|s_cid|icid)$/i;

/** Removes tracking parameters (utm_*, fbclid, gclid, ...) from an absolute URL; other parameters stay. */
export function stripTracking(url: URL): string {
  return url.search.length < 2 ? url.href : stripTrackingParams(url.href);
}

/** The same on a URL string, without parsing it (the query is split on '&' up to any '#'). */
export function stripTrackingParams(href: string): string {
  const q = href.indexOf('?');
  if (q === -1) return href;
  let h = href.indexOf('#', q);
  if (h === -1) h = href.length;
  const parts = href.slice(q + 1, h).split('&');
  const kept: string[] = [];
  for (const part of parts) {
    const eq = part.indexOf('=');
    if (part && !TRACKING_PARAM.test(safeDecode(eq === -1 ? part : part.slice(0, eq)))) kept.push(part);
  }
  if (kept.length === parts.length) return href;
  return `${href.slice(0, q)}${kept.length ? `?${kept.join('&')}` : ''}${href.slice(h)}`;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Path words of a click-tracking redirect (`/rrserver/click?...&ct=<target>`, `/aclk?adurl=<target>`). */
const REDIRECT_PATH = /(?:^|[/._-])(?:click|clk|clickthrough|redirect|redir|rd|out|outbound|track|tracking|aclk|goto|go|link|url|away|exit)(?:[/._-]|$)/i;
/** Query parameters that carry a redirect's destination. */
const REDIRECT_PARAM = /^(?:url|u|ct|dest|destination|redirect|redirect_?url|target|to|goto|link|adurl|out|ru|return_?url)$/i;

/**
 * The destination of a click-tracking redirect: an absolute URL whose path names a redirect (click,
 * redirect, out, track, ...) and whose query carries an absolute http(s) URL in a destination
 * parameter (url, u, ct, dest, adurl, ...). Null for any other URL. The reader lands on the
 * destination: written instead of the redirect it is the same link in a fraction of the tokens.
 */
export function redirectTarget(url: string): string | null {
  const q = url.indexOf('?');
  if (q === -1) return null;
  const path = url.slice(url.indexOf('/', url.indexOf('//') + 2), q);
  if (!REDIRECT_PATH.test(path)) return null;
  const end = url.indexOf('#', q);
  for (const part of url.slice(q + 1, end === -1 ? url.length : end).split('&')) {
    const eq = part.indexOf('=');
    if (eq <= 0 || !REDIRECT_PARAM.test(part.slice(0, eq))) continue;
    const v = safeDecode(part.slice(eq + 1).replace(/\+/g, ' ')).trim();
    if (!/^https?:\/\/[^/\s]/i.test(v)) continue;
    try {
      return stripTracking(new URL(v));
    } catch {
      /* not a URL */
    }
  }
  return null;
}

export type UrlResolver = {
  /** Absolute, tracking-free URL for an href/src, or null when it points nowhere useful. */
  resolve(href: string | undefined): string | null;
  /** Replace the base (a <base href> seen in the document). */
  setBase(href: string): void;
};

/** A resolver with a per-page cache (pages repeat the same hrefs many times). */
export function urlResolver(pageUrl: string): UrlResolver {
  let base: URL | null = null;
  try {
    base = new URL(pageUrl);
  } catch {
    base = null;
  }
  const cache = new Map<string, string | null>();
  return {
    setBase(href) {
      try {
        base = new URL(href.trim(), base ?? undefined);
        cache.clear();
      } catch {
        /* keep the page URL */
      }
    },
    resolve(href) {
      if (href === undefined) return null;
      const raw = href.trim();
      if (!raw || raw[0] === '#') return null;
      const hit = cache.get(raw);
      if (hit !== undefined) return hit;
      let out: string | null = null;
      const lower = raw.slice(0, 11).toLowerCase();
      if (lower.startsWith('javascript:') || lower.startsWith('data:') || lower.startsWith('about:') || lower.startsWith('blob:')) {
        out = null;
      } else {
        try {
          const u = new URL(raw, base ?? undefined);
          out = u.protocol === 'http:' || u.protocol === 'https:' ? stripTracking(u) : u.href;
        } catch {
          out = null;
        }
      }
      if (cache.size < 50_000) cache.set(raw, out);
      return out;
    },
  };
}

const PLACEHOLDER = /^data:|placeholder|blank\.(?:gif|png)|spacer\.gif|transparent\.(?:gif|png)|1x1\.|pixel\.(?:gif|png)|lazy[-_]?load|loading\.(?:gif|svg)/i;

function firstCandidate(srcset: string | undefined): string | undefined {
  if (!srcset) return undefined;
  const first = srcset.trim().split(/,\s+/, 1)[0];
  return first ? first.trim().split(/\s+/, 1)[0] : undefined;
}

/** The real source of an <img>: src, or a lazy-loading attribute, or the first srcset candidate. */
export function pickImageSrc(attrs: Record<string, string>): string | undefined {
  const src = attrs.src?.trim();
  if (src && !PLACEHOLDER.test(src)) return src;
  const lazy =
    attrs['data-src'] ||
    attrs['data-lazy-src'] ||
    attrs['data-original'] ||
    attrs['data-lazy'] ||
    attrs['data-url'] ||
    firstCandidate(attrs['data-srcset']) ||
    firstCandidate(attrs.srcset);
  if (lazy && !lazy.startsWith('data:')) return lazy;
  return src && !src.startsWith('data:') ? src : undefined;
}

const TRACKER =
  /facebook\.com\/tr|google-analytics\.com|googletagmanager\.com|doubleclick\.net|bat\.bing\.com|px\.ads\.linkedin\.com|analytics\.twitter\.com|scorecardresearch\.com|quantserve\.com|\/pixel(?:\.gif)?\?|\/beacon\?|\/collect\?|[?&](?:tid|ev|event)=/i;

/** Tracking pixels: 0/1-pixel images and known beacon endpoints. */
export function isTrackingPixel(attrs: Record<string, string>, src: string): boolean {
  const w = attrs.width;
  const h = attrs.height;
  if ((w === '0' || w === '1') && (h === '0' || h === '1' || h === undefined)) return true;
  if (h === '0' || h === '1') return true;
  return TRACKER.test(src);
}
