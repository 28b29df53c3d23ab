// The driver runs the same contract suite as Gleaner's own drivers, from @gleaner/testing.
// Run: npx mocha test/contract.test.ts
import { driverContract } from '@gleaner/testing';
import { createFetchDriver } from '../src/index.ts';

driverContract('fetch', (opts) => createFetchDriver(opts), {
  capabilities: { javascript: false, interaction: false, proxy: false, cookies: false },
});
