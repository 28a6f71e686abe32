// Test helpers for adapter authors: the conformance suite kitgate's own adapters pass, and the
// unique-violation check the engine uses. Export path: `kitgate/adapters/testing`.

/**
 * The adapter conformance suite; see {@link AdapterTestOptions}.
 *
 * @example
 * import { runAdapterTests } from 'kitgate/adapters/testing';
 * runAdapterTests({ name: 'MyAdapter', adapter: () => MyAdapter() });
 */
export { runAdapterTests, type AdapterTestOptions } from './conformance.js';

/**
 * True when an error is a unique-constraint violation of the SQLite, PostgreSQL or memory adapter.
 *
 * @example
 * expect(isUniqueViolation(error)).toBe(true);
 */
export { isUniqueViolation, UniqueViolationError } from './errors.js';
