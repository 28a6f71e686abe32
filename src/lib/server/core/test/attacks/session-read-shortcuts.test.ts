// Attacks on the session read's hot-path shortcuts (1215da2): the memo of verified session
// cookies hands out copies of the payload it keeps, and must read every token the app issued as a
// fresh decrypt would. Each test is named after the attack and what the attacker gains.

import { describe, expect, test } from 'vitest';
import { anyUserWorld } from '../credentials-fixture.js';

/** `depth` arrays, each the only item of the one around it: JSON that JSON.stringify still writes. */
function nestedArrays(depth: number): unknown {
	let value: unknown = [];
	for (let at = 1; at < depth; at++) value = [value];
	return value;
}

describe('the memo of verified session cookies', () => {
	// attacker gains: a session that every read answers with a 500 (RangeError), from data the app keeps in its token
	test('a token with deeply nested arrays (written by JSON.stringify) is read, fresh and from the memo', async () => {
		const { signedIn, sessionOf } = anyUserWorld({
			callbacks: { jwt: ({ token }) => ({ ...token, prefs: nestedArrays(3500) }) }
		});
		const laptop = await signedIn('ada');
		for (const read of ['fresh decrypt', 'memo hit']) {
			const { response, session } = await sessionOf(laptop);
			expect(response.status, read).toBe(200);
			expect(session?.user?.name, read).toBe('ada');
		}
	});
});
