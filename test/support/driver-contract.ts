// Moved to @gleaner/testing (packages/testing); re-exported for the repository's tests.
export { driverContract, echoedCookies, testResolver, visit } from '@gleaner/testing';
export type { ContractDriverOptions, DriverContractFeatures, TestResolver } from '@gleaner/testing';
