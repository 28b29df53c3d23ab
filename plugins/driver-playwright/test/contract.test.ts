// The Playwright driver against the shared driver contract (driverContract in @gleaner/testing) and the
// interaction contract (interactionContract in @gleaner/testing): all of both. The http and Selenium
// drivers run the same contracts in their own test/contract.test.ts.
import { createPlaywrightDriver } from '@gleaner/driver-playwright';
import { driverContract, type ContractDriverOptions, interactionContract } from '@gleaner/testing';

const BROWSER = { javascript: true, interaction: true, proxy: true, cookies: true };

// Two pages at once, as a worker runs them; self-signed fixture certificates accepted.
const playwright = (o: ContractDriverOptions) => createPlaywrightDriver({ ...o, maxPages: 2, ignoreHttpsErrors: true });
driverContract('playwright', playwright, { capabilities: BROWSER });
interactionContract('playwright', playwright);
