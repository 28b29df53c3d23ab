// A loopback site with a sign-in form (username, password, one-time code) and a page behind it:
// GET /signin shows the form; POST /signin checks the three fields (the code is RFC 6238 TOTP of
// the seed, this step or the one before) and sets a session cookie; /account/orders lists products
// to a signed-in session and redirects anyone else to /signin (as a site does when a session has
// expired); `expire()` ends every session. The orders page keeps a wish list in the browser's local
// storage (as single-page apps keep state), and /account/wishlist renders it from there with JavaScript:
// only a browser holding the profile's local storage sees it.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { totp } from '@gleaner/core/internal';
import type { FixtureSite } from '@gleaner/testing';
import { productLine, type Product } from './agent-site.ts';

export const ORDERS: Product[] = [
  { name: 'Signed Kettle', price: 41 },
  { name: 'Members Teapot', price: 77.5 },
  { name: 'Private Mug', price: 9.25 },
];

export const WISHLIST: Product[] = [
  { name: 'Wished Whistle', price: 12 },
  { name: 'Longed-for Lid', price: 3.5 },
];

const WISHLIST_PAGE = `<!doctype html><html><head><title>Your wish list</title></head><body><h1>Your wish list</h1><ul id="products"></ul>
<script>
const items = JSON.parse(localStorage.getItem('club-wishlist') || '[]');
document.getElementById('products').innerHTML = items.map((p) => '<li class="product"><span class="name">Product: ' + p.name + '</span> — <span class="price">$' + p.price + '</span></li>').join('');
</script></body></html>`;

export interface SignInSite {
  /** Successful and failed sign-ins so far. */
  signIns: number;
  failures: number;
  /** Every body POSTed to /signin, as received (to check what the replay typed). */
  posts: Array<Record<string, string>>;
  /** Ends every session (the next visit to /account/orders is sent to /signin). */
  expire(): void;
}

const doc = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;

const FORM = (error = '') =>
  doc(
    'Sign in',
    `<h1>Sign in to Kettle Club</h1>${error ? `<p class="error">${error}</p>` : ''}
    <form action="/signin" method="post">
      <label for="user">Username</label><input id="user" name="username" type="text">
      <label for="pw">Password</label><input id="pw" name="password" type="password">
      <label for="code">One-time code</label><input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code">
      <button type="submit">Sign in</button>
    </form>`,
  );

async function body(req: IncomingMessage): Promise<Record<string, string>> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return Object.fromEntries(new URLSearchParams(text));
}

function sessionOf(req: IncomingMessage): string | null {
  return /(?:^|;\s*)sid=([\w-]+)/.exec(req.headers.cookie ?? '')?.[1] ?? null;
}

export function addSignInSite(site: FixtureSite, account: { username: string; password: string; seed: string }): SignInSite {
  const sessions = new Set<string>();
  const state: SignInSite = {
    signIns: 0,
    failures: 0,
    posts: [],
    expire: () => sessions.clear(),
  };
  site.route('/signin', async (req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(FORM());
      return;
    }
    const form = await body(req);
    state.posts.push(form);
    const now = Date.now();
    const codes = [totp(account.seed, { time: now }), totp(account.seed, { time: now - 30_000 })];
    if (form.username !== account.username || form.password !== account.password || !codes.includes(form.code)) {
      state.failures++;
      res.writeHead(401, { 'content-type': 'text/html; charset=utf-8' });
      res.end(FORM('Wrong username, password or code.'));
      return;
    }
    state.signIns++;
    const sid = randomBytes(12).toString('hex');
    sessions.add(sid);
    res.writeHead(303, { location: '/account/orders', 'set-cookie': `sid=${sid}; Path=/; HttpOnly; SameSite=Lax` });
    res.end();
  });
  site.route('/account/orders', (req, res) => {
    const sid = sessionOf(req);
    if (!sid || !sessions.has(sid)) {
      res.writeHead(302, { location: '/signin?next=%2Faccount%2Forders' });
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      doc(
        'Your orders',
        `<h1>Your orders</h1><ul id="products">${ORDERS.map(productLine).join('')}</ul><a href="/signout">Sign out</a>` +
          `<script>localStorage.setItem('club-wishlist', ${JSON.stringify(JSON.stringify(WISHLIST))});</script>`,
      ),
    );
  });
  // An API-style page: a signed-out visit is answered 401 (no redirect to the form).
  site.route('/account/statement', (req, res) => {
    const sid = sessionOf(req);
    if (!sid || !sessions.has(sid)) {
      res.writeHead(401, { 'content-type': 'text/html; charset=utf-8', 'www-authenticate': 'Cookie' });
      res.end(doc('Signed out', '<h1>Please sign in</h1>'));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(doc('Statement', `<h1>Statement</h1><ul id="products">${ORDERS.map(productLine).join('')}</ul>`));
  });
  site.route('/account/wishlist', (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(WISHLIST_PAGE);
  });
  return state;
}
