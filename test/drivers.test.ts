// The three drivers against one contract (driverContract in @gleaner/testing), and against the
// interaction contract (interactionContract in @gleaner/testing): the browsers all of it, http (linkedom,
// no JavaScript) the cases that need no page script.
import { createHttpDriver } from '@gleaner/driver-http';
import { createPlaywrightDriver } from '@gleaner/driver-playwright';
import { createSeleniumDriver } from '@gleaner/driver-selenium';
import { FIXTURE_CA, driverContract, type ContractDriverOptions, interactionContract } from '@gleaner/testing';

const BROWSER = { javascript: true, interaction: true, proxy: true, cookies: true };

const http = (o: ContractDriverOptions) => createHttpDriver({ ...o, ca: FIXTURE_CA });
driverContract('http', http, { capabilities: { javascript: false, interaction: true, proxy: true, cookies: true } });
interactionContract('http', http, { javascript: false });

// Two pages at once, as a worker runs them; self-signed fixture certificates accepted.
const playwright = (o: ContractDriverOptions) => createPlaywrightDriver({ ...o, maxPages: 2, ignoreHttpsErrors: true });
driverContract('playwright', playwright, { capabilities: BROWSER });
interactionContract('playwright', playwright);

const selenium = (o: ContractDriverOptions) => createSeleniumDriver({ ...o, maxPages: 2, ignoreHttpsErrors: true });
driverContract('selenium', selenium, { capabilities: BROWSER });
interactionContract('selenium', selenium);
