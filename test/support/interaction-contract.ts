// Moved to @gleaner/testing (packages/testing); re-exported for the repository's tests.
export { interactionContract } from '@gleaner/testing';
export type { InteractionContractFeatures } from '@gleaner/testing';
