// Moved to @gleaner/testing (packages/testing); re-exported for the repository's tests.
export { rejection } from '@gleaner/testing';
