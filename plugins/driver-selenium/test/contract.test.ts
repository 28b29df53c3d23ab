// The Selenium driver against the shared driver contract (driverContract in @gleaner/testing) and the
// interaction contract (interactionContract in @gleaner/testing): all of both, as Playwright.
import { createSeleniumDriver } from '@gleaner/driver-selenium';
import { driverContract, type ContractDriverOptions, interactionContract } from '@gleaner/testing';

const BROWSER = { javascript: true, interaction: true, proxy: true, cookies: true };

// Two pages at once, as a worker runs them; self-signed fixture certificates accepted.
const selenium = (o: ContractDriverOptions) => createSeleniumDriver({ ...o, maxPages: 2, ignoreHttpsErrors: true });
driverContract('selenium', selenium, { capabilities: BROWSER });
interactionContract('selenium', selenium);
