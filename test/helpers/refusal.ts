/**
 * @module
 * The typed error a call throws, for tests of refusals: fails the test when nothing is thrown.
 */
import type { NotedError } from '../../src/common/errors.js';

export function refusal(run: () => unknown): NotedError {
  try {
    run();
  } catch (err) {
    return err as NotedError;
  }
  throw new Error('expected a refusal, but the call returned');
}
