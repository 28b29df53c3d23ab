// Moved to @gleaner/testing (packages/testing); re-exported for the repository's tests.
export { FIXTURE_CA, FIXTURE_KEY, LATIN1_TEXT, startFixtureSite } from '@gleaner/testing';
export type { FixtureSite, FixtureSiteOptions, Handler, FixtureRequest as RecordedRequest } from '@gleaner/testing';
