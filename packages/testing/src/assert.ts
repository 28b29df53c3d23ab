import { expect } from 'chai';
import { GleanerError } from '@gleaner/core/plugin';

/** The GleanerError a promise rejects with; fails the test when it resolves or throws anything else. */
export async function rejection(p: Promise<unknown>): Promise<GleanerError> {
  try {
    await p;
  } catch (err) {
    expect(err).to.be.instanceOf(GleanerError);
    return err as GleanerError;
  }
  throw new Error('expected a rejection');
}
