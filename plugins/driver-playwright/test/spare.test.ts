// The spare page (spare.ts) with a stand-in browser: when sessions count as following one another
// closely (the driver then makes the next spare as soon as a session's first page has loaded).
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { createSparePage, type PreparedPage } from '../src/spare.ts';

/** A browser that is always connected, and a make() that takes `ms` and counts its pages. */
function standIn(ms: number) {
  const browser = { isConnected: () => true } as unknown as Browser;
  let made = 0;
  let disposed = 0;
  const make = async (b: Browser): Promise<PreparedPage> => {
    await sleep(ms);
    made++;
    return {
      browser: b,
      proxy: { close: async () => void disposed++ },
      context: { close: async () => undefined, once: () => undefined },
      page: { isClosed: () => false },
    } as unknown as PreparedPage;
  };
  return { browser, make, counts: () => ({ made, disposed }) };
}

describe('driver-playwright: the spare page', () => {
  it('counts sessions as following one another while no spare is found ready, until one waits unused for a second', async () => {
    const b = standIn(50);
    const spare = createSparePage(b.make);
    expect(spare.behind).to.equal(false);
    // None made yet: the session makes its own page.
    expect(await spare.take(b.browser)).to.equal(null);
    expect(spare.behind).to.equal(true);
    // Still being made: the take waits for it.
    spare.prepare(b.browser);
    expect(await spare.take(b.browser)).to.not.equal(null);
    expect(spare.behind).to.equal(true);
    // Ready just before the take: still following one another.
    spare.prepare(b.browser);
    await sleep(150);
    expect(await spare.take(b.browser)).to.not.equal(null);
    expect(spare.behind).to.equal(true);
    // Left unused for over a second: sessions no longer follow one another.
    spare.prepare(b.browser);
    await sleep(1200);
    expect(await spare.take(b.browser)).to.not.equal(null);
    expect(spare.behind).to.equal(false);
    // A spare found ready at once does not make them so.
    spare.prepare(b.browser);
    await sleep(150);
    expect(await spare.take(b.browser)).to.not.equal(null);
    expect(spare.behind).to.equal(false);
    expect(b.counts().made).to.equal(4);
    await spare.close();
  });

  it('makes one spare at a time and drops it on close', async () => {
    const b = standIn(30);
    const spare = createSparePage(b.make);
    spare.prepare(b.browser);
    spare.prepare(b.browser);
    await spare.close();
    await sleep(100);
    expect(b.counts()).to.deep.equal({ made: 1, disposed: 1 });
    // Closed: no new spare, nothing to take.
    spare.prepare(b.browser);
    expect(await spare.take(b.browser)).to.equal(null);
    await sleep(60);
    expect(b.counts().made).to.equal(1);
  });
});
