// The focus refresh cannot be turned into a request storm: focus and visibility events come as fast
// as a page (or a page framing this one, which may focus its window) fires them, but the session is
// asked at most once per interval; a refresh that failed waits the same interval.

import { describe, expect, test } from 'vitest';
import { FOCUS_REFRESH_INTERVAL_MS, focusRefresher } from './focus-refresh.js';

function counting(answer: () => Promise<unknown> = async () => null) {
	const calls: number[] = [];
	let now = 0;
	const refresh = focusRefresher(
		() => {
			calls.push(now);
			return answer();
		},
		() => now
	);
	return { calls, refresh, advance: (ms: number) => (now += ms) };
}

describe('focusRefresher', () => {
	test('a hundred focus events within the interval ask once', () => {
		const { calls, refresh, advance } = counting();
		for (let i = 0; i < 100; i++) {
			refresh();
			advance(FOCUS_REFRESH_INTERVAL_MS / 200);
		}
		expect(calls).toEqual([0]);
	});

	test('after the interval the next focus asks again (a sign-out in another tab still shows)', () => {
		const { calls, refresh, advance } = counting();
		refresh();
		advance(FOCUS_REFRESH_INTERVAL_MS);
		refresh();
		refresh();
		expect(calls).toEqual([0, FOCUS_REFRESH_INTERVAL_MS]);
	});

	test('a failing server is not asked again at every focus either, and its error is kept quiet', async () => {
		const { calls, refresh, advance } = counting(async () => {
			throw new Error('down');
		});
		refresh();
		await Promise.resolve();
		refresh();
		advance(FOCUS_REFRESH_INTERVAL_MS);
		refresh();
		expect(calls).toHaveLength(2);
	});

	test('the interval is short enough for a user coming back from another tab', () => {
		expect(FOCUS_REFRESH_INTERVAL_MS).toBeGreaterThanOrEqual(1000);
		expect(FOCUS_REFRESH_INTERVAL_MS).toBeLessThanOrEqual(5000);
	});
});
