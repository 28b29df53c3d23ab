// Moved to @gleaner/testing (packages/testing); re-exported for the repository's tests.
export { describeProviderContract, PRODUCT, PRODUCT_SCHEMA } from '@gleaner/testing';
export type { ContractContext, ProviderUnderTest } from '@gleaner/testing';
