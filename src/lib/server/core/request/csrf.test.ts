import { describe, test, expect } from 'vitest';
import { csrfState, isCsrfValid, tokenFromCsrfCookie } from './csrf.js';

const SECRET = 'csrf-test-secret-0123456789abcdefghij';
const OTHER_SECRET = 'another-secret-0123456789abcdefghijkl';

/** Changes the character at `index` to a different hex digit. */
function changeAt(value: string, index: number): string {
	const replacement = value[index] === '0' ? '1' : '0';
	return value.slice(0, index) + replacement + value.slice(index + 1);
}

describe('csrfState', () => {
	test('without a cookie makes a fresh token and a cookie value holding it', () => {
		const state = csrfState(undefined, [SECRET]);
		expect(state.fromCookie).toBe(false);
		expect(state.token).toMatch(/^[0-9a-f]{64}$/);
		expect(state.cookieValue).toBeDefined();
		const [token, mac] = state.cookieValue!.split('.');
		expect(token).toBe(state.token);
		expect(mac).toMatch(/^[0-9a-f]{64}$/);
	});

	test('two requests without a cookie get different tokens', () => {
		expect(csrfState(undefined, [SECRET]).token).not.toBe(csrfState(undefined, [SECRET]).token);
	});

	test('with its own cookie value returns the same token, fromCookie, and no new cookie', () => {
		const first = csrfState(undefined, [SECRET]);
		const second = csrfState(first.cookieValue, [SECRET]);
		expect(second.token).toBe(first.token);
		expect(second.fromCookie).toBe(true);
		expect(second.cookieValue).toBeUndefined();
	});

	test('a cookie with a changed token is forged: a new token is made', () => {
		const { token, cookieValue } = csrfState(undefined, [SECRET]);
		const forged = changeAt(cookieValue!, 5);
		const state = csrfState(forged, [SECRET]);
		expect(state.fromCookie).toBe(false);
		expect(state.token).not.toBe(token);
		expect(state.token).not.toBe(forged.split('.')[0]);
		expect(state.cookieValue).toBeDefined();
	});

	test('a cookie with a changed mac is forged', () => {
		const { token, cookieValue } = csrfState(undefined, [SECRET]);
		const forged = changeAt(cookieValue!, cookieValue!.length - 3);
		const state = csrfState(forged, [SECRET]);
		expect(state.fromCookie).toBe(false);
		expect(state.token).not.toBe(token);
	});

	test('a cookie signed with another secret is forged', () => {
		const foreign = csrfState(undefined, [OTHER_SECRET]);
		const state = csrfState(foreign.cookieValue, [SECRET]);
		expect(state.fromCookie).toBe(false);
		expect(state.token).not.toBe(foreign.token);
	});

	test('malformed cookie values are treated as absent', () => {
		for (const value of ['', 'no-separator', '|onlymac', 'token|', '|', 'a|b|c', '.onlymac', 'token.', '.', 'a.b.c']) {
			const state = csrfState(value, [SECRET]);
			expect(state.fromCookie).toBe(false);
			expect(state.cookieValue).toBeDefined();
		}
	});

	test("a cookie in the earlier form (token|mac, sent percent-encoded and decoded) still validates", () => {
		const current = csrfState(undefined, [SECRET]);
		const earlier = current.cookieValue!.replace('.', '|');
		const state = csrfState(earlier, [OTHER_SECRET, SECRET]);
		expect(state.fromCookie).toBe(true);
		expect(state.token).toBe(current.token);
		expect(csrfState(changeAt(earlier, earlier.length - 3), [SECRET]).fromCookie).toBe(false);
	});

	test('a cookie value needs no percent-encoding', () => {
		const value = csrfState(undefined, [SECRET]).cookieValue!;
		expect(encodeURIComponent(value)).toBe(value);
	});

	test('a cookie signed by an older secret still validates after rotation', () => {
		const old = csrfState(undefined, [OTHER_SECRET]);
		const state = csrfState(old.cookieValue, [SECRET, OTHER_SECRET]);
		expect(state.fromCookie).toBe(true);
		expect(state.token).toBe(old.token);
		expect(isCsrfValid(state, old.token)).toBe(true);
	});

	test('new cookies are signed with the first secret', () => {
		const made = csrfState(undefined, [SECRET, OTHER_SECRET]);
		expect(tokenFromCsrfCookie(made.cookieValue, [SECRET])).toBe(made.token);
		expect(tokenFromCsrfCookie(made.cookieValue, [OTHER_SECRET])).toBeUndefined();
	});
});

describe('isCsrfValid', () => {
	const fromCookie = () => {
		const { cookieValue } = csrfState(undefined, [SECRET]);
		return csrfState(cookieValue, [SECRET]);
	};

	test('true only for the exact token with a valid cookie', () => {
		const state = fromCookie();
		expect(isCsrfValid(state, state.token)).toBe(true);
	});

	test('false without a valid cookie, even for the matching token', () => {
		const fresh = csrfState(undefined, [SECRET]);
		expect(isCsrfValid(fresh, fresh.token)).toBe(false);
	});

	test('false for missing, non-string, other or partial tokens', () => {
		const state = fromCookie();
		const other = csrfState(undefined, [SECRET]).token;
		for (const submitted of [
			undefined,
			null,
			'',
			42,
			{ toString: () => state.token },
			[state.token],
			other,
			state.token.slice(0, 32),
			`${state.token}0`,
			state.token.toUpperCase(),
			changeAt(state.token, 0)
		]) {
			expect(isCsrfValid(state, submitted)).toBe(false);
		}
	});
});
