// Test helpers for adapter authors (`kitgate/testing`): the conformance suite kitgate's own adapters
// pass, and the unique-violation check the engine uses. Needs vitest (an optional peer dependency):
// the suite registers vitest tests.

/**
 * The adapter conformance suite; see {@link AdapterTestOptions}.
 *
 * @example
 * import { runAdapterTests } from 'kitgate/testing';
 * runAdapterTests({ name: 'MyAdapter', adapter: () => MyAdapter() });
 */
export { runAdapterTests, type AdapterTestOptions } from './conformance.js';

/**
 * True when an error is a unique violation as the engine understands it: a `UniqueViolationError`
 * (or its code) in the cause chain. Adapters translate their driver's errors into it
 * (`withUniqueViolations` or `asUniqueViolation` from `kitgate/adapters/errors`).
 *
 * @example
 * expect(isUniqueViolation(error)).toBe(true);
 */
export { isUniqueViolation, UniqueViolationError } from '../server/core/store/unique-violation.js';
