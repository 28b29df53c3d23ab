// The http driver against the shared driver contract (driverContract in @gleaner/testing) and the
// interaction contract (interactionContract in @gleaner/testing): linkedom runs no JavaScript, so the
// cases that need no page script.
import { createHttpDriver } from '@gleaner/driver-http';
import { FIXTURE_CA, driverContract, type ContractDriverOptions, interactionContract } from '@gleaner/testing';

const http = (o: ContractDriverOptions) => createHttpDriver({ ...o, ca: FIXTURE_CA });
driverContract('http', http, { capabilities: { javascript: false, interaction: true, proxy: true, cookies: true } });
interactionContract('http', http, { javascript: false });
