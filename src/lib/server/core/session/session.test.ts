import { describe, test, expect } from 'vitest';
import { isSessionStale } from './session.js';

const WRITTEN = Date.UTC(2030, 0, 1);
const DAY = 86_400;

describe('isSessionStale', () => {
	test('updateAge 0 means always stale, even written this very millisecond', () => {
		expect(isSessionStale(WRITTEN, WRITTEN, 0)).toBe(true);
		expect(isSessionStale(WRITTEN, WRITTEN - 1000, 0)).toBe(true);
	});

	test('fresh just after writing', () => {
		expect(isSessionStale(WRITTEN, WRITTEN, DAY)).toBe(false);
		expect(isSessionStale(WRITTEN, WRITTEN + 1, DAY)).toBe(false);
	});

	test('stale from exactly updateAge on, fresh one millisecond before', () => {
		expect(isSessionStale(WRITTEN, WRITTEN + DAY * 1000 - 1, DAY)).toBe(false);
		expect(isSessionStale(WRITTEN, WRITTEN + DAY * 1000, DAY)).toBe(true);
		expect(isSessionStale(WRITTEN, WRITTEN + DAY * 1000 + 1, DAY)).toBe(true);
	});

	test('updateAge is in seconds, times in milliseconds', () => {
		expect(isSessionStale(WRITTEN, WRITTEN + 59_999, 60)).toBe(false);
		expect(isSessionStale(WRITTEN, WRITTEN + 60_000, 60)).toBe(true);
		expect(isSessionStale(WRITTEN, WRITTEN + 60, 60)).toBe(false);
	});

	test('a write time in the future (clock skew) is not stale', () => {
		expect(isSessionStale(WRITTEN + 10_000, WRITTEN, 1)).toBe(false);
	});

	test('a very old session is stale', () => {
		expect(isSessionStale(0, WRITTEN, DAY)).toBe(true);
	});
});
