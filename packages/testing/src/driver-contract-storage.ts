// The driver contract's local-storage cases (plugin API 1.3): a profile's local storage written before
// an origin's first page script, once per session, and read back. Browsers only.
import { expect } from 'chai';
import type { Driver, DriverCapabilities } from '@gleaner/core/plugin';
import type { FixtureSite } from './fixture-site.ts';
import { visit } from './driver-contract.ts';

export function localStorageContract(capabilities: DriverCapabilities, ctx: () => { site: FixtureSite; driver: Driver }): void {
  // A profile's local storage: written before the origin's first page script, once per session.
  (capabilities.javascript ? describe : describe.skip)('local storage', () => {
    const shop = () => `http://www.shop.test:${ctx().site.port}`;
    before(() =>
      ctx().site.page(
        '/storage',
        `<!doctype html><title>Storage</title><p id="out">?</p><script>
document.getElementById('out').textContent = 'token=' + localStorage.getItem('token');
localStorage.setItem('token', 'changed');
localStorage.setItem('seen', '1');
</script>`,
      ),
    );

    it('starts with the local storage given, keeps what the page changes, and reads it back', async () => {
      const session = await ctx().driver.openSession({ localStorage: { [shop()]: { token: 'abc' }, 'http://other.test:1': { x: 'y' } } });
      try {
        expect((await session.goto(`${shop()}/storage`)).html).to.contain('token=abc');
        // The page's own change stands on its next document: the profile is written once.
        expect((await session.goto(`${shop()}/storage`)).html).to.contain('token=changed');
        expect(session.localStorage, 'a browser session reads its local storage').to.be.a('function');
        const state = await session.localStorage!();
        expect(state[shop()]).to.deep.equal({ token: 'changed', seen: '1' });
      } finally {
        await session.close();
      }
      // Sessions do not share it.
      expect((await visit(ctx().driver, `${shop()}/storage`)).html).to.contain('token=null');
    });
  });
}
