// Moved to @gleaner/testing (packages/testing); re-exported for the repository's tests.
export { startForwardProxy } from '@gleaner/testing';
export type { ForwardProxy, ProxiedRequest } from '@gleaner/testing';
