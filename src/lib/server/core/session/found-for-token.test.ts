import { describe, expect, test } from 'vitest';
import { foundForToken } from './found-for-token.js';

describe('foundForToken: a session row counts only for its own token', () => {
	const row = (sessionToken?: string) => ({ session: { sessionToken }, user: { id: 'u1' } });

	test('the row of the very token is kept; a row without its token (an adapter that leaves it out) too', () => {
		expect(foundForToken(row('imp.YQ.1.x'), 'imp.YQ.1.x')).toEqual(row('imp.YQ.1.x'));
		expect(foundForToken(row(undefined), 'abc')).toEqual(row(undefined));
	});

	test('a row found by a lookalike (another case, a prefix) or nothing found is no session', () => {
		expect(foundForToken(row('imp.YQ.1.x'), 'IMP.YQ.1.x')).toBeNull();
		expect(foundForToken(row('imp.YQ.1.xyz'), 'imp.YQ.1.x')).toBeNull();
		expect(foundForToken(null, 'abc')).toBeNull();
		expect(foundForToken(undefined, 'abc')).toBeNull();
	});
});
